import { costChannel, costKey } from '@uf/shared/ad-costs';
import type { AnalyticsSummary, FunnelStep, PeriodTotals, SourceRow } from '@uf/shared/analytics.schema';
import { CLICK_EVENT_TYPES } from '@uf/shared/analytics.schema';
import type { AnalyticsQuery } from '@uf/shared/analytics-query.schema';
import type { Channel } from '@uf/shared/channel';
import { dollarsOf } from '@uf/shared/money';
import type { Pool } from 'pg';
import { moneyFigures } from '../costs/money-figures';
import { addDays, type DayRange, splitRange } from './analytics-periods';
import {
  COUNTED_DIMENSIONS,
  keptDayVisitors,
  LAST_CLOSED_DAY,
  type VisitorFilter,
} from './day-visitor-counts';
import { saleRollupReady } from './sale-rollup';

// Visits, visitors, the funnel and the sources table (issue 15, ADR 055). Visit figures come from the
// source rollups, lead figures from the lead source rollups that triggers on website_lead keep exact
// (both: whole months from the monthly table, loose days from the daily one, as the other dimensions),
// filtered alike by country and by channel, source and campaign.

/** Positional parameters collected while a statement is built. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

export const where = (clauses: string[]) => (clauses.length ? `where ${clauses.join(' and ')}` : '');

/** The counts of the visit rollups (analytics_daily_source, analytics_monthly_source), in column order. */
export const VISIT_COUNTS = [
  'visits',
  'visitors',
  'page_views',
  'survey_starts',
  'form_submits',
  'state_clicks',
  'lead_visits',
  'beneficiary_visits',
] as const;

/**
 * The funnel's columns of the visit rollups, in funnel order, with the depth each counts from: a visit
 * counts at every step up to the deepest one it reached (analytics_visit_depth), so no step can exceed
 * the one before it (issue 26).
 */
export const FUNNEL_DEPTHS = [
  ['page_views', 1],
  ['survey_starts', 2],
  ['form_submits', 3],
  ['lead_visits', 4],
  ['beneficiary_visits', 5],
  ['state_clicks', 6],
] as const;
type VisitCounts = Record<(typeof VISIT_COUNTS)[number], number>;

/** Sources shown in the table: the ones with the most visitors (the totals always count all). */
export const SOURCES_LIMIT = 100;

/** The attribution filters of a query, each a column and the value it must hold. */
function attributionFilters(q: AnalyticsQuery): VisitorFilter[] {
  return COUNTED_DIMENSIONS.flatMap((dimension) => {
    const value = q[dimension];
    // '' is a campaign filter too: the traffic without a campaign ("(none)", issue 37).
    const applies = dimension === 'campaign' ? value !== undefined : Boolean(value);
    return applies ? [{ dimension, value: value as string }] : [];
  });
}

function attributionClauses(q: AnalyticsQuery, params: Params): string[] {
  return attributionFilters(q).map((f) => `${f.dimension} = ${params.add(f.value)}`);
}

/**
 * Under an experiment filter (issue 48, ADR 075) the figures are narrowed to the visitors its pages counted
 * and the leads sent from them. No rollup is keyed by arm, so each rollup's daily rows are computed from
 * what they sum: the visits (analytics_visit, kept ANALYTICS_RETENTION_DAYS) of visitor-days with an
 * exposure to the experiment (and arm), and the website leads that carry it. Ad cost has no arm: unknown.
 */
export type ExperimentFilter = { experiment: string; arm?: string };

export function experimentFilter(q: AnalyticsQuery): ExperimentFilter | null {
  return q.experiment ? { experiment: q.experiment, arm: q.arm } : null;
}

/** Ad cost is known only for what a campaign bought: not under a country or an experiment filter. */
export const costsKnown = (q: AnalyticsQuery) => !q.country && !q.experiment;

/** A clause true for a visit (alias `v`) whose visitor-day was exposed to the experiment (and arm). */
function exposedVisit(f: ExperimentFilter, params: Params): string {
  const arm = f.arm ? ` and e.arm = ${params.add(f.arm)}` : '';
  return `exists (select 1 from experiment_exposure e where e.experiment_id = ${params.add(f.experiment)}::uuid
    and e.day = v.day and e.visitor_id = v.visitor_id${arm})`;
}

/** A clause true for a website lead sent from the experiment's pages (and arm). */
function experimentLead(f: ExperimentFilter, params: Params): string {
  const arm = f.arm ? ` and experiment_arm = ${params.add(f.arm)}` : '';
  return `experiment_id = ${params.add(f.experiment)}::uuid${arm}`;
}

/** The lead rollups' key (the triggers' own: the opt-in day, and Direct/direct/'' for what is missing). */
const LEAD_KEY = `case when opt_in_date ~ '^\\d{4}-\\d{2}-\\d{2}$' then opt_in_date::date else created_at::date end as day,
  coalesce(country, '') as country, coalesce(channel, 'Direct') as channel, coalesce(source, 'direct') as source,
  coalesce(campaign, '') as campaign`;

type Rollup = {
  daily: string;
  monthly: string;
  counts: readonly string[];
  /** The daily rollup's rows, computed for the exposed visitors or leads of an experiment. */
  exposed: (f: ExperimentFilter, params: Params) => string;
};
const VISITS: Rollup = {
  daily: 'analytics_daily_source',
  monthly: 'analytics_monthly_source',
  counts: VISIT_COUNTS,
  exposed: (f, params) => `
    select day, country, channel, source, campaign, count(*) as visits,
      count(distinct visitor_id) as visitors,
      ${FUNNEL_DEPTHS.map(([c, depth]) => `count(*) filter (where analytics_visit_depth(steps) >= ${depth}) as ${c}`).join(', ')}
    from analytics_visit v where ${exposedVisit(f, params)} group by 1, 2, 3, 4, 5`,
};
const LEAD_COUNTS = ['leads', 'consenting', 'beneficiaries', 'tracked'] as const;
const LEADS: Rollup = {
  daily: 'lead_daily_source',
  monthly: 'lead_monthly_source',
  counts: LEAD_COUNTS,
  exposed: (f, params) => `
    select ${LEAD_KEY}, count(*) as leads,
      count(*) filter (where consent_given and tcpa_compliant = 'true' and opted_out_at is null) as consenting,
      count(*) filter (where beneficiary is not null) as beneficiaries,
      count(*) filter (where visit_tracked) as tracked
    from website_lead where ${experimentLead(f, params)} group by 1, 2, 3, 4, 5`,
};
/** Lead quality by source (issue 33): leads by verdict, and accepted leads with a tracked visit. */
const QUALITY: Rollup = {
  daily: 'lead_daily_quality',
  monthly: 'lead_monthly_quality',
  counts: ['accepted', 'held', 'rejected', 'accepted_tracked'],
  exposed: (f, params) => `
    select ${LEAD_KEY}, count(*) filter (where quality_verdict = 'accept') as accepted,
      count(*) filter (where quality_verdict = 'hold') as held,
      count(*) filter (where quality_verdict = 'reject') as rejected,
      count(*) filter (where quality_verdict = 'accept' and visit_tracked) as accepted_tracked
    from website_lead where ${experimentLead(f, params)} group by 1, 2, 3, 4, 5`,
};
const REASONS: Rollup = {
  daily: 'lead_daily_reason',
  monthly: 'lead_monthly_reason',
  counts: ['leads'],
  exposed: (f, params) => `
    select ${LEAD_KEY}, reason, count(*) as leads
    from website_lead cross join unnest(quality_reasons) reason
    where ${experimentLead(f, params)} group by 1, 2, 3, 4, 5, 6`,
};
/** The reasons a source's row lists. */
const TOP_REASONS = 3;

/** A source rollup's counts over `range`, grouped by `keys` (none: one total row). */
function rollupSql(
  rollup: Rollup,
  q: AnalyticsQuery,
  range: DayRange,
  params: Params,
  keys: string[],
): string {
  const cols = [...keys, ...rollup.counts].join(', ');
  const parts: string[] = [];
  const experiment = experimentFilter(q);
  // Under an experiment filter, one computed daily table for the whole range (no monthly one).
  const { months, days } = experiment ? { months: null, days: [range] } : splitRange(range);
  const daily = experiment ? `(${rollup.exposed(experiment, params)}) exposed` : rollup.daily;
  if (months) {
    const clauses = attributionClauses(q, params);
    if (months.from) clauses.push(`month >= ${params.add(months.from)}::date`);
    if (months.to) clauses.push(`month <= ${params.add(months.to)}::date`);
    parts.push(`select ${cols} from ${rollup.monthly} ${where(clauses)}`);
  }
  for (const d of days) {
    const clauses = attributionClauses(q, params);
    if (d.from) clauses.push(`day >= ${params.add(d.from)}::date`);
    if (d.to) clauses.push(`day <= ${params.add(d.to)}::date`);
    parts.push(`select ${cols} from ${daily} ${where(clauses)}`);
  }
  const sums = rollup.counts.map((c) => `coalesce(sum(${c}), 0)::text as ${c}`).join(', ');
  return `select ${[...keys, sums].join(', ')} from (${parts.join(' union all ')}) x
    ${keys.length ? `group by ${keys.join(', ')}` : ''}`;
}

type VisitRow = Record<(typeof VISIT_COUNTS)[number], string>;
const visitCounts = (row: VisitRow | undefined): VisitCounts =>
  Object.fromEntries(VISIT_COUNTS.map((c) => [c, Number(row?.[c] ?? 0)])) as VisitCounts;

const NO_QUALITY = () => ({ accepted: 0, held: 0, rejected: 0, topReasons: [], revenue: 0 });
/** The money columns before the figures are worked out (issue 35). */
const NO_MONEY = () => ({
  sold: 0,
  returned: 0,
  net: 0,
  cost: null,
  profit: null,
  roi: null,
  earningsPerVisit: null,
  costPerAcceptedLead: null,
});

/** A row of the sources table with nothing counted yet. */
const emptyRow = (channel: Channel, source: string, campaign: string): SourceRow => ({
  channel,
  source,
  campaign,
  visitors: 0,
  visits: 0,
  surveyStarts: 0,
  leads: 0,
  leadVisits: 0,
  leadsWithoutVisit: 0,
  consentingLeads: 0,
  consentRate: null,
  conversionRate: null,
  ...NO_QUALITY(),
  ...NO_MONEY(),
});

const percent = (part: number, whole: number) =>
  whole === 0 ? null : Math.round((part / whole) * 1000) / 10;
const keyOf = (r: { channel: string; source: string; campaign: string }) =>
  `${r.channel}\u0000${r.source}\u0000${r.campaign}`;

/**
 * Unique visitors over a range (issue 37): a visitor counts once a day, whatever sources, channels,
 * campaigns or countries brought them that day, as the card's caption says — counted from the days'
 * visitor ids, not summed over the source rollups (which count a visitor once per source: 1,055 shown for
 * 901 distinct visitors). Closed days add their kept counts (ADR 070); the open days are counted from
 * the visitor ids. Days whose
 * ids went with the raw events (ANALYTICS_RETENTION_DAYS) have only the rollups left: those days add their
 * sources' sums.
 */
export async function countVisitors(
  pool: Pool,
  q: AnalyticsQuery,
  range: DayRange,
  timeZone: string,
): Promise<number> {
  const experiment = experimentFilter(q);
  if (experiment) {
    // The exposed visitors with a visit of the range: from the visits, kept as long as the raw events.
    const params = new Params();
    const clauses = [exposedVisit(experiment, params), ...attributionClauses(q, params)];
    if (range.from) clauses.push(`day >= ${params.add(range.from)}::date`);
    if (range.to) clauses.push(`day <= ${params.add(range.to)}::date`);
    const { rows } = await pool.query<{ n: string }>(
      `select count(*)::text as n from (select distinct day, visitor_id from analytics_visit v ${where(clauses)}) x`,
      params.values,
    );
    return Number(rows[0]?.n ?? 0);
  }
  const kept = await pool.query<{ first: string | null; last_closed: string }>(
    `select min(day)::text as first, ${LAST_CLOSED_DAY('$1')}::text as last_closed from analytics_day_visitor`,
    [timeZone],
  );
  const firstKept = kept.rows[0]?.first ?? null;
  const filters = attributionFilters(q);
  // The kept days of the range: closed ones from their kept counts, the open ones counted here.
  let fromCounts = 0;
  let exactFrom = range.from;
  if (firstKept !== null) {
    const from = range.from !== undefined && range.from > firstKept ? range.from : firstKept;
    const lastClosed = kept.rows[0]?.last_closed as string;
    const to = range.to !== undefined && range.to < lastClosed ? range.to : lastClosed;
    const counted = from <= to ? await keptDayVisitors(pool, { from, to }, filters) : null;
    if (counted !== null) {
      fromCounts = counted;
      exactFrom = addDays(to, 1);
    }
  }
  const params = new Params();
  const clauses = attributionClauses(q, params);
  if (exactFrom) clauses.push(`day >= ${params.add(exactFrom)}::date`);
  if (range.to) clauses.push(`day <= ${params.add(range.to)}::date`);
  const exact = pool.query<{ n: string }>(
    `select count(*)::text as n from (
       select distinct day, visitor_id from analytics_day_visitor ${where(clauses)}) v`,
    params.values,
  );
  // The purged days of the range: those before the first kept day (every day when none is kept).
  const lastPurged = firstKept === null ? range.to : addDays(firstKept, -1);
  const purged =
    range.to !== undefined && lastPurged !== undefined && range.to < lastPurged ? range.to : lastPurged;
  let fromRollups = 0;
  if (range.from === undefined || purged === undefined || range.from <= purged) {
    const rollupParams = new Params();
    const sums = await pool.query<VisitRow>(
      rollupSql(VISITS, q, { from: range.from, to: purged }, rollupParams, []),
      rollupParams.values,
    );
    fromRollups = visitCounts(sums.rows[0]).visitors;
  }
  return Number((await exact).rows[0]?.n ?? 0) + fromCounts + fromRollups;
}

export type SourcesReport = Pick<
  AnalyticsSummary,
  | 'totalVisitors'
  | 'totalVisits'
  | 'funnel'
  | 'funnelLeadAccepted'
  | 'sources'
  | 'leadsWithoutVisit'
  | 'moneyTotals'
  | 'dailyMoney'
>;

/**
 * Sales by source (issue 34; the words of issue 47, ADR 073): the website leads of the range sold to
 * buyers — `sold` counts them all, returned ones included, `returned` the returned ones; revenue_cents adds
 * their prices (gross), returned_cents the prices of the returned ones (net is the difference) — keyed as
 * the lead rollups are (the day of the offer in the business time zone). Read from the kept daily sums
 * (`lead_sale_daily`, ADR 070) when they are summed in `timeZone`, else from the sales.
 */
function revenueSql(
  q: AnalyticsQuery,
  range: DayRange,
  timeZone: string,
  params: Params,
  by: 'source and day' | 'day',
  from: 'rollup' | 'sales',
  only?: { channel: string; source: string; campaign: string }[],
): string {
  const clauses = attributionClauses(q, params);
  const experiment = experimentFilter(q);
  if (experiment) {
    // No kept sum is keyed by arm: an experiment's sales are read from the sales (getSourcesReport).
    clauses.push(`lead_id in (select id from website_lead where ${experimentLead(experiment, params)})`);
  }
  let day: () => string;
  let table: string;
  let sums: string;
  if (from === 'rollup') {
    table = 'lead_sale_daily';
    day = () => 'day';
    if (range.from) clauses.push(`day >= ${params.add(range.from)}::date`);
    if (range.to) clauses.push(`day <= ${params.add(range.to)}::date`);
    sums = `sum(sold)::text as sold, sum(returned)::text as returned,
      coalesce(sum(revenue_cents), 0)::text as revenue_cents,
      coalesce(sum(returned_cents), 0)::text as returned_cents`;
  } else {
    table = 'lead_sale';
    clauses.push(`lead_kind = 'website'`, `status = 'sold'`);
    const zone = params.add(timeZone);
    day = () => `(created_at at time zone ${zone})::date`;
    if (range.from) {
      // A day's offers lie within a day of its UTC date: the index narrows, the zone's date decides.
      const from = params.add(range.from);
      clauses.push(`created_at >= (${from}::date - 1)::timestamptz`, `${day()} >= ${from}::date`);
    }
    if (range.to) {
      const to = params.add(range.to);
      clauses.push(`created_at < (${to}::date + 2)::timestamptz`, `${day()} <= ${to}::date`);
    }
    // Whole cents: no float ever adds money up.
    sums = `count(*)::text as sold, count(*) filter (where returned_at is not null)::text as returned,
      coalesce(sum(price_cents), 0)::text as revenue_cents,
      coalesce(sum(price_cents) filter (where returned_at is not null), 0)::text as returned_cents`;
  }
  if (only) {
    const keys = ['channel', 'source', 'campaign'] as const;
    const arrays = keys.map((k) => `${params.add(only.map((o) => o[k]))}::text[]`).join(', ');
    clauses.push(`(channel, source, campaign) in (select * from unnest(${arrays}))`);
  }
  if (by === 'day') {
    return `select ${day()}::text as day, ${sums} from ${table} ${where(clauses)} group by 1`;
  }
  // One scan for both: the rows by source (day null) and the day sums (by_day).
  return `select grouping(channel, source, campaign) <> 0 as by_day, channel, source, campaign,
      ${day()}::text as day, ${sums}
    from ${table} ${where(clauses)} group by grouping sets ((channel, source, campaign), (${day()}))`;
}

/** A group of sales as revenueSql sums it (bigint sums: text from pg). */
type SaleSums = { sold: string; returned: string; revenue_cents: string; returned_cents: string };

/**
 * Ad cost by source and campaign (issue 35), one grouped query over the filter's days. Ad cost has no
 * channel and no country: a source or campaign filter narrows it (compared as costs meet traffic,
 * without regard to case); a channel filter is applied to the rows it lands on.
 */
function costSql(
  q: AnalyticsQuery,
  range: DayRange,
  params: Params,
  by: 'source' | 'day',
  only?: { source: string; campaign: string }[],
): string {
  const clauses: string[] = [];
  if (range.from) clauses.push(`day >= ${params.add(range.from)}::date`);
  if (range.to) clauses.push(`day <= ${params.add(range.to)}::date`);
  if (q.source) clauses.push(`source = lower(btrim(${params.add(q.source)}))`);
  if (q.campaign !== undefined) clauses.push(`lower(campaign) = lower(btrim(${params.add(q.campaign)}))`);
  if (only) {
    const sources = params.add(only.map((o) => o.source));
    const campaigns = params.add(only.map((o) => o.campaign.toLowerCase()));
    clauses.push(
      `(source, lower(campaign)) in (select * from unnest(${sources}::text[], ${campaigns}::text[]))`,
    );
  }
  if (by === 'day') {
    return `select day::text as day, sum(cost_cents)::text as cost_cents from ad_cost ${where(clauses)} group by day`;
  }
  // Summed per campaign as spelled first (hashing the stored text), then per campaign without regard to
  // case: a few rows to lower() instead of every day's (ADR 070).
  return `select source, min(campaign) as campaign, sum(cost_cents)::text as cost_cents
    from (select source, campaign, sum(cost_cents) as cost_cents from ad_cost ${where(clauses)}
      group by source, campaign) c
    group by source, lower(campaign)`;
}

export async function getSourcesReport(
  pool: Pool,
  q: AnalyticsQuery,
  timeZone: string,
): Promise<SourcesReport> {
  const range = { from: q.startDate, to: q.endDate };
  const visitParams = new Params();
  const leadParams = new Params();
  const qualityParams = new Params();
  const reasonParams = new Params();
  const revenueParams = new Params();
  const costParams = new Params();
  const sourceKeys = ['channel', 'source', 'campaign'];
  // Under a country filter the cost is unknown (an ad platform's daily cost has no country), not 0; nor
  // has it an arm.
  const knownCosts = costsKnown(q);
  type DayCents<K extends string> = { rows: ({ day: string } & Record<K, string>)[] };
  // The sales' money from the kept daily sums when they are ready in this zone (ADR 070), else summed
  // from lead_sale; every read of one answer from the same place.
  const salesFrom = (q.experiment ? Promise.resolve(false) : saleRollupReady(pool, timeZone)).then(
    (ready): 'rollup' | 'sales' => (ready ? 'rollup' : 'sales'),
  );
  const revenueByDay = async (only?: { channel: string; source: string; campaign: string }[]) => {
    const params = new Params();
    return pool.query<{ day: string } & SaleSums>(
      revenueSql(q, range, timeZone, params, 'day', await salesFrom, only),
      params.values,
    );
  };
  const costByDay = (only?: { source: string; campaign: string }[]): Promise<DayCents<'cost_cents'>> => {
    if (!knownCosts) return Promise.resolve({ rows: [] });
    const params = new Params();
    return pool.query<{ day: string; cost_cents: string }>(
      costSql(q, range, params, 'day', only),
      params.values,
    );
  };
  const [visits, leads, visitors, quality, reasons, sales, costs, dayCost] = await Promise.all([
    pool.query<VisitRow & { channel: Channel; source: string; campaign: string }>(
      rollupSql(VISITS, q, range, visitParams, ['channel', 'source', 'campaign']),
      visitParams.values,
    ),
    pool.query<{
      channel: Channel;
      source: string;
      campaign: string;
      leads: string;
      consenting: string;
      beneficiaries: string;
      tracked: string;
    }>(rollupSql(LEADS, q, range, leadParams, ['channel', 'source', 'campaign']), leadParams.values),
    countVisitors(pool, q, range, timeZone),
    pool.query<{
      channel: Channel;
      source: string;
      campaign: string;
      accepted: string;
      held: string;
      rejected: string;
      accepted_tracked: string;
    }>(rollupSql(QUALITY, q, range, qualityParams, sourceKeys), qualityParams.values),
    pool.query<{ channel: Channel; source: string; campaign: string; reason: string; leads: string }>(
      rollupSql(REASONS, q, range, reasonParams, [...sourceKeys, 'reason']),
      reasonParams.values,
    ),
    salesFrom.then((from) =>
      pool.query<
        { by_day: boolean; channel: Channel; source: string; campaign: string; day: string } & SaleSums
      >(revenueSql(q, range, timeZone, revenueParams, 'source and day', from), revenueParams.values),
    ),
    knownCosts
      ? pool.query<{ source: string; campaign: string; cost_cents: string }>(
          costSql(q, range, costParams, 'source'),
          costParams.values,
        )
      : { rows: [] },
    // The daily chart's money (issue 35): the same costs summed by day (the sales' come with them).
    costByDay(),
  ]);
  const revenue = { rows: sales.rows.filter((r) => !r.by_day) };
  const dayRevenue = { rows: sales.rows.filter((r) => r.by_day) };

  const rows = new Map<string, SourceRow>();
  const total = visitCounts(undefined);
  for (const v of visits.rows) {
    const counts = visitCounts(v);
    for (const c of VISIT_COUNTS) total[c] += counts[c];
    rows.set(keyOf(v), {
      ...emptyRow(v.channel, v.source, v.campaign),
      visitors: counts.visitors,
      visits: counts.visits,
      surveyStarts: counts.survey_starts,
      leadVisits: counts.lead_visits,
    });
  }
  let leadsWithoutVisit = 0;
  for (const l of leads.rows) {
    const untracked = Math.max(0, Number(l.leads) - Number(l.tracked));
    leadsWithoutVisit += untracked;
    const key = keyOf(l);
    let row = rows.get(key);
    if (!row) {
      // Leads of a source without counted visits (their sessions were not tracked, or have expired).
      row = emptyRow(l.channel, l.source, l.campaign);
      rows.set(key, row);
    }
    row.leads = Number(l.leads);
    row.leadsWithoutVisit = untracked;
    row.consentingLeads = Number(l.consenting);
  }
  // Lead quality (issue 33): every source with leads has a row by now (its leads made it one above).
  let acceptedTracked = 0;
  for (const qr of quality.rows) {
    acceptedTracked += Number(qr.accepted_tracked);
    const row = rows.get(keyOf(qr));
    if (!row) continue;
    row.accepted = Number(qr.accepted);
    row.held = Number(qr.held);
    row.rejected = Number(qr.rejected);
  }
  // Money (issue 35), kept in cents until each row's figures are worked out: gross and credited back.
  const saleCents = new Map<SourceRow, { revenue: number; credited: number }>();
  // Sales of a source without a row of the range (its lead and visits in other days) count in no row:
  // the daily chart leaves them out too.
  const revenueLeftOut: { channel: string; source: string; campaign: string }[] = [];
  for (const r of revenue.rows) {
    const row = rows.get(keyOf(r));
    if (!row) {
      revenueLeftOut.push(r);
      continue;
    }
    row.sold = Number(r.sold);
    row.returned = Number(r.returned);
    saleCents.set(row, { revenue: Number(r.revenue_cents), credited: Number(r.returned_cents) });
  }
  // A campaign's cost lands on the row of its source and campaign (case aside); when traffic has it
  // under two channels, on the one with the most visits. A cost that meets no traffic is a row of its own
  // under its source's paid channel: a campaign bought but never tagged, which the operator must see.
  const byCostKey = new Map<string, SourceRow>();
  for (const row of rows.values()) {
    const key = costKey(row.source, row.campaign);
    const seen = byCostKey.get(key);
    if (!seen || row.visits > seen.visits || (row.visits === seen.visits && row.leads > seen.leads)) {
      byCostKey.set(key, row);
    }
  }
  const costCents = new Map<SourceRow, number>();
  const costOnly: SourceRow[] = [];
  const costLeftOut: { source: string; campaign: string }[] = [];
  for (const c of costs.rows) {
    let row = byCostKey.get(costKey(c.source, c.campaign));
    if (!row) {
      const channel = costChannel(c.source);
      if (q.channel && q.channel !== channel) {
        costLeftOut.push(c);
        continue;
      }
      row = emptyRow(channel, c.source, c.campaign);
      byCostKey.set(costKey(c.source, c.campaign), row);
      costOnly.push(row);
    }
    costCents.set(row, (costCents.get(row) ?? 0) + Number(c.cost_cents));
  }
  // Each day's money is what the rows count (so the days add up to the totals): the day sums, less the
  // money of the sources left out above — usually none, read only when there are some.
  const [revenueOut, costOut] = await Promise.all([
    revenueLeftOut.length ? revenueByDay(revenueLeftOut) : { rows: [] },
    costLeftOut.length ? costByDay(costLeftOut) : { rows: [] },
  ]);
  const daily = new Map<string, { revenueCents: number; creditedCents: number; costCents: number }>();
  const addTo = (day: string, sign: number, sales: SaleSums | null, cost: number) => {
    const entry = daily.get(day) ?? { revenueCents: 0, creditedCents: 0, costCents: 0 };
    entry.revenueCents += sign * Number(sales?.revenue_cents ?? 0);
    entry.creditedCents += sign * Number(sales?.returned_cents ?? 0);
    entry.costCents += sign * cost;
    daily.set(day, entry);
  };
  for (const r of dayRevenue.rows) addTo(r.day, 1, r, 0);
  for (const r of revenueOut.rows) addTo(r.day, -1, r, 0);
  for (const c of dayCost.rows) addTo(c.day, 1, null, Number(c.cost_cents));
  for (const c of costOut.rows) addTo(c.day, -1, null, Number(c.cost_cents));
  const money = { sold: 0, returned: 0, revenueCents: 0, creditedCents: 0, costCents: 0, accepted: 0 };
  for (const row of [...rows.values(), ...costOnly]) {
    const sales = saleCents.get(row) ?? { revenue: 0, credited: 0 };
    const cost = knownCosts ? (costCents.get(row) ?? 0) : null;
    row.revenue = dollarsOf(sales.revenue);
    row.net = dollarsOf(sales.revenue - sales.credited);
    Object.assign(
      row,
      moneyFigures({
        netCents: sales.revenue - sales.credited,
        costCents: cost,
        visits: row.visits,
        accepted: row.accepted,
      }),
    );
    money.sold += row.sold;
    money.returned += row.returned;
    money.revenueCents += sales.revenue;
    money.creditedCents += sales.credited;
    money.costCents += cost ?? 0;
    money.accepted += row.accepted;
  }
  const byCount = [...reasons.rows].sort(
    (a, b) => Number(b.leads) - Number(a.leads) || a.reason.localeCompare(b.reason),
  );
  for (const r of byCount) {
    const row = rows.get(keyOf(r));
    if (!row || Number(r.leads) <= 0 || row.topReasons.length >= TOP_REASONS) continue;
    row.topReasons.push({ reason: r.reason, leads: Number(r.leads) });
  }
  for (const row of rows.values()) {
    row.consentRate = percent(row.consentingLeads, row.leads);
    // One population (issue 26): the source's visits that stored a lead, of its visits.
    row.conversionRate = percent(row.leadVisits, row.visits);
  }
  const sources = [...rows.values()]
    .sort(
      (a, b) =>
        b.visitors - a.visitors ||
        b.visits - a.visits ||
        b.leads - a.leads ||
        keyOf(a).localeCompare(keyOf(b)),
    )
    .slice(0, SOURCES_LIMIT)
    // Campaigns with cost and no traffic are always listed, below the traffic (issue 35).
    .concat(costOnly.slice(0, SOURCES_LIMIT));

  // Every step counts visits of the range, each up to the deepest step it reached (issue 26).
  const funnel: Record<FunnelStep, number> = {
    page_view: total.page_views,
    survey_started: total.survey_starts,
    form_submitted: total.form_submits,
    lead_stored: total.lead_visits,
    beneficiary_answered: total.beneficiary_visits,
    state_site_click: total.state_clicks,
  };
  return {
    totalVisitors: visitors,
    totalVisits: total.visits,
    funnel: Object.entries(funnel).map(([step, count]) => ({ step: step as FunnelStep, count })),
    // The visits whose lead was accepted: a part of "lead stored" (a visit may store a second lead), beside
    // the chain and not a step of it — held and rejected visitors answer and click like the others, so a
    // step after it could count more (issue 49).
    funnelLeadAccepted: Math.min(acceptedTracked, total.lead_visits),
    sources,
    leadsWithoutVisit,
    dailyMoney: [...daily.entries()]
      .filter(([, m]) => m.revenueCents !== 0 || m.costCents !== 0)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([date, m]) => ({
        date,
        revenue: dollarsOf(m.revenueCents),
        net: dollarsOf(m.revenueCents - m.creditedCents),
        cost: knownCosts ? dollarsOf(m.costCents) : null,
      })),
    moneyTotals: {
      sold: money.sold,
      returned: money.returned,
      revenue: dollarsOf(money.revenueCents),
      net: dollarsOf(money.revenueCents - money.creditedCents),
      ...moneyFigures({
        netCents: money.revenueCents - money.creditedCents,
        costCents: knownCosts ? money.costCents : null,
        visits: total.visits,
        accepted: money.accepted,
      }),
    },
  };
}

/** The cards' figures over one period (for the comparison with the previous one). */
export async function getPeriodTotals(
  pool: Pool,
  q: AnalyticsQuery,
  range: Required<DayRange>,
  timeZone: string,
): Promise<PeriodTotals> {
  const eventParams = new Params();
  const clauses = [
    `day >= ${eventParams.add(range.from)}::date`,
    `day <= ${eventParams.add(range.to)}::date`,
  ];
  if (q.eventType) clauses.push(`event_type = ${eventParams.add(q.eventType)}`);
  if (q.country) clauses.push(`country = ${eventParams.add(q.country)}`);
  const visitParams = new Params();
  const [events, countries, visits, visitors] = await Promise.all([
    pool.query<{ event_type: string; count: string }>(
      `select event_type, sum(count)::text as count
       from ${q.country ? 'analytics_daily_country' : 'analytics_daily_type'} ${where(clauses)} group by event_type`,
      eventParams.values,
    ),
    pool.query<{ count: string }>(
      // Distinct by hashing, not count(distinct)'s sort (ADR 070).
      `select count(*)::text as count from (
         select distinct country from analytics_daily_country ${where(clauses)}) c`,
      eventParams.values,
    ),
    pool.query<VisitRow>(rollupSql(VISITS, q, range, visitParams, []), visitParams.values),
    countVisitors(pool, q, range, timeZone),
  ]);
  const byType = new Map(events.rows.map((r) => [r.event_type, Number(r.count)]));
  const v = visitCounts(visits.rows[0]);
  return {
    pageViews: byType.get('page_view') ?? 0,
    clicks: CLICK_EVENT_TYPES.reduce((sum, t) => sum + (byType.get(t) ?? 0), 0),
    surveyStarts: byType.get('survey_started') ?? 0,
    countries: Number(countries.rows[0]?.count ?? 0),
    visitors,
    visits: v.visits,
  };
}
