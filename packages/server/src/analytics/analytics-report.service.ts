import { ANALYTICS_TOP_LIMIT, type AnalyticsSummary, CLICK_EVENT_TYPES } from '@uf/shared/analytics.schema';
import { zeroFillDays } from '@uf/shared/analytics-dashboard';
import type { AnalyticsQuery } from '@uf/shared/analytics-query.schema';
import type { AnalyticsEventType } from '@uf/shared/constants';
import { ERROR_CODES } from '@uf/shared/errors';
import type { Pool, PoolClient } from 'pg';
import { AppError } from '../errors';
import { findExperiment } from '../experiments/experiment.service';
import { dateAndTimeIn } from '../platform/time';
import { comparisonPeriods, splitRange } from './analytics-periods';
import {
  costsKnown,
  FUNNEL_DEPTHS,
  getPeriodTotals,
  getSourcesReport,
  Params,
  where,
} from './analytics-sources';
import { keepDayVisitorCounts, LAST_CLOSED_DAY } from './day-visitor-counts';
import { rebuildSaleRollup } from './sale-rollup';

// The dashboard's numbers, read from the daily and monthly rollups only (ADR 020): the work depends on
// the number of days, months, countries and referrers in range, never on the number of events. A 'day'
// is a calendar day in TIME_ZONE; startDate and endDate are inclusive days in that zone.

/** The event type and country conditions every rollup read shares. */
function filterClauses(q: AnalyticsQuery, params: Params, withCountry: boolean): string[] {
  const clauses: string[] = [];
  if (q.eventType) clauses.push(`event_type = ${params.add(q.eventType)}`);
  if (withCountry && q.country) clauses.push(`country = ${params.add(q.country)}`);
  return clauses;
}

/**
 * Totals of one dimension (country or referrer) over the query's range: whole months from the monthly
 * rollup, loose days at either end from the daily one.
 */
function dimensionSql(
  q: AnalyticsQuery,
  params: Params,
  tables: { daily: string; monthly: string },
  key: string,
  limit?: number,
): string {
  const { months, days } = splitRange({ from: q.startDate, to: q.endDate });
  // The referrer rollups count visits (issue 15), one row kind whatever the event type filter.
  const filter: AnalyticsQuery = key === 'referrer' ? { ...q, eventType: undefined } : q;
  const parts: string[] = [];
  if (months) {
    const clauses = filterClauses(filter, params, true);
    if (months.from) clauses.push(`month >= ${params.add(months.from)}::date`);
    if (months.to) clauses.push(`month <= ${params.add(months.to)}::date`);
    parts.push(`select ${key} as key, count from ${tables.monthly} ${where(clauses)}`);
  }
  for (const range of days) {
    const clauses = filterClauses(filter, params, true);
    if (range.from) clauses.push(`day >= ${params.add(range.from)}::date`);
    if (range.to) clauses.push(`day <= ${params.add(range.to)}::date`);
    parts.push(`select ${key} as key, count from ${tables.daily} ${where(clauses)}`);
  }
  return `select key, sum(count)::text as count from (${parts.join(' union all ')}) x
    group by key order by sum(count) desc, key${limit ? ` limit ${limit}` : ''}`;
}

type CountRow = { count: string };

/**
 * Visits by device type, browser and operating system over the query's range (issue 26): whole months
 * from the monthly rollup, loose days from the daily one; the country filter applies, the event type
 * does not (a visit's device is not an event's, as for Top Referrers).
 */
function deviceSql(q: AnalyticsQuery, params: Params): string {
  const { months, days } = splitRange({ from: q.startDate, to: q.endDate });
  const country = (clauses: string[]) => {
    if (q.country) clauses.push(`country = ${params.add(q.country)}`);
    return clauses;
  };
  const parts: string[] = [];
  if (months) {
    const clauses = country([]);
    if (months.from) clauses.push(`month >= ${params.add(months.from)}::date`);
    if (months.to) clauses.push(`month <= ${params.add(months.to)}::date`);
    parts.push(`select dimension, value, count from analytics_monthly_device ${where(clauses)}`);
  }
  for (const range of days) {
    const clauses = country([]);
    if (range.from) clauses.push(`day >= ${params.add(range.from)}::date`);
    if (range.to) clauses.push(`day <= ${params.add(range.to)}::date`);
    parts.push(`select dimension, value, count from analytics_daily_device ${where(clauses)}`);
  }
  return `select dimension, value, sum(count)::text as count from (${parts.join(' union all ')}) x
    group by dimension, value order by sum(count) desc, value`;
}

/** The breakdown lists of one dimension: the top entries by visits. */
function breakdown(rows: { dimension: string; value: string; count: string }[], dimension: string) {
  return (
    rows
      .filter((r) => r.dimension === dimension)
      .slice(0, ANALYTICS_TOP_LIMIT)
      .map((r) => ({ name: r.value, count: Number(r.count) }))
      // Ties in code-point order, whatever the database's collation.
      .sort((a, b) => b.count - a.count || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  );
}

/** An experiment filter names an experiment that exists, and an arm of it: else a 400 that says which. */
async function checkExperimentFilter(pool: Pool, id: string, arm: string | undefined) {
  const experiment = await findExperiment(pool, id);
  if (!experiment) {
    throw new AppError(ERROR_CODES.validation, 'experiment: no such experiment', [
      { field: 'experiment', message: 'no such experiment' },
    ]);
  }
  if (arm !== undefined && !experiment.arms.some((a) => a.key === arm)) {
    throw new AppError(ERROR_CODES.validation, `arm: this experiment has no arm "${arm}"`, [
      { field: 'arm', message: `this experiment has no arm "${arm}"` },
    ]);
  }
}

export async function getAnalyticsSummary(
  pool: Pool,
  q: AnalyticsQuery,
  timeZone: string,
  now = new Date(),
): Promise<AnalyticsSummary> {
  if (q.experiment) await checkExperimentFilter(pool, q.experiment, q.arm);
  const byCountry = Boolean(q.country);
  // Daily activity and totals: a handful of rows per day (per country when filtered by one).
  const activityParams = new Params();
  const activityClauses = filterClauses(q, activityParams, true);
  if (q.startDate) activityClauses.push(`day >= ${activityParams.add(q.startDate)}::date`);
  if (q.endDate) activityClauses.push(`day <= ${activityParams.add(q.endDate)}::date`);
  const countryParams = new Params();
  const referrerParams = new Params();
  const deviceParams = new Params();
  const [activity, countries, referrers, devices] = await Promise.all([
    pool.query<CountRow & { day: string; event_type: AnalyticsEventType }>(
      `select day::text as day, event_type, sum(count)::text as count
       from ${byCountry ? 'analytics_daily_country' : 'analytics_daily_type'} ${where(activityClauses)}
       group by day, event_type order by day`,
      activityParams.values,
    ),
    pool.query<CountRow & { key: string }>(
      dimensionSql(
        q,
        countryParams,
        { daily: 'analytics_daily_country', monthly: 'analytics_monthly_country' },
        'country',
      ),
      countryParams.values,
    ),
    pool.query<CountRow & { key: string }>(
      dimensionSql(
        q,
        referrerParams,
        byCountry
          ? { daily: 'analytics_daily_country_referrer', monthly: 'analytics_monthly_country_referrer' }
          : { daily: 'analytics_daily_referrer', monthly: 'analytics_monthly_referrer' },
        'referrer',
        ANALYTICS_TOP_LIMIT,
      ),
      referrerParams.values,
    ),
    pool.query<{ dimension: string; value: string; count: string }>(
      deviceSql(q, deviceParams),
      deviceParams.values,
    ),
  ]);

  const clickTypes = new Set<string>(CLICK_EVENT_TYPES);
  const days = new Map<string, AnalyticsSummary['dailyViews'][number]>();
  let totalPageViews = 0;
  let totalClicks = 0;
  let totalSurveyStarts = 0;
  for (const row of activity.rows) {
    const count = Number(row.count);
    let entry = days.get(row.day);
    if (!entry) {
      entry = { date: row.day, views: 0, clicks: 0, surveyStarts: 0 };
      days.set(row.day, entry);
    }
    if (row.event_type === 'page_view') {
      entry.views += count;
      totalPageViews += count;
    } else if (row.event_type === 'survey_started') {
      entry.surveyStarts += count;
      totalSurveyStarts += count;
    } else if (clickTypes.has(row.event_type)) {
      entry.clicks += count;
      totalClicks += count;
    }
  }

  const today = dateAndTimeIn(now, timeZone).date;
  const periods = comparisonPeriods({ from: q.startDate, to: q.endDate }, today);
  const [report, current, previous] = await Promise.all([
    getSourcesReport(pool, q, timeZone),
    getPeriodTotals(pool, q, periods.current, timeZone),
    getPeriodTotals(pool, q, periods.previous, timeZone),
  ]);

  // Days without events show as zeros, not as gaps (issue 16).
  const dailyViews = zeroFillDays([...days.values()], { startDate: q.startDate, endDate: q.endDate, today });
  // The chart's money (issue 35): a figure for every day it shows, and the days with money and no event.
  const moneyByDay = new Map(report.dailyMoney.map((d) => [d.date, d]));
  const moneyDays = [...new Set([...dailyViews.map((d) => d.date), ...moneyByDay.keys()])].sort();
  const noMoney = (date: string) => ({ date, revenue: 0, net: 0, cost: costsKnown(q) ? 0 : null });
  return {
    totalPageViews,
    totalClicks,
    totalSurveyStarts,
    uniqueCountries: countries.rows.length,
    topCountries: countries.rows
      .slice(0, ANALYTICS_TOP_LIMIT)
      .map((r) => ({ country: r.key, count: Number(r.count) })),
    topReferrers: referrers.rows.map((r) => ({ referrer: r.key, count: Number(r.count) })),
    dailyViews,
    ...report,
    dailyMoney: moneyDays.map((date) => moneyByDay.get(date) ?? noMoney(date)),
    deviceTypes: breakdown(devices.rows, 'device'),
    browsers: breakdown(devices.rows, 'browser'),
    operatingSystems: breakdown(devices.rows, 'os'),
    comparison: {
      startDate: periods.current.from,
      endDate: periods.current.to,
      previousStartDate: periods.previous.from,
      previousEndDate: periods.previous.to,
      current,
      previous,
    },
  };
}

const DAILY_TABLES = [
  'analytics_daily_type',
  'analytics_daily_country',
  'analytics_daily_referrer',
  'analytics_daily_country_referrer',
  'analytics_daily_source',
  'analytics_visit',
  'analytics_day_visitor',
  'analytics_daily_device',
] as const;

const SOURCE_COUNTS = ['visits', 'visitors', ...FUNNEL_DEPTHS.map(([c]) => c)].join(', ');
/** A visit counts at every funnel step up to the deepest one it reached (issue 26). */
const DEPTH_COUNTS = FUNNEL_DEPTHS.map(
  ([, depth]) => `count(*) filter (where analytics_visit_depth(steps) >= ${depth})`,
).join(', ');
const SUM_SOURCE_COUNTS = ['visits', 'visitors', ...FUNNEL_DEPTHS.map(([c]) => c)]
  .map((c) => `sum(${c})`)
  .join(', ');

/** Each monthly rollup is the sum of its daily one, by these columns besides the day. */
const MONTHLY_TABLES = [
  {
    table: 'analytics_monthly_country',
    daily: 'analytics_daily_country',
    keys: 'event_type, country',
    sums: 'sum(count)',
    counts: 'count',
  },
  {
    table: 'analytics_monthly_referrer',
    daily: 'analytics_daily_referrer',
    keys: 'event_type, referrer',
    sums: 'sum(count)',
    counts: 'count',
  },
  {
    table: 'analytics_monthly_country_referrer',
    daily: 'analytics_daily_country_referrer',
    keys: 'country, event_type, referrer',
    sums: 'sum(count)',
    counts: 'count',
  },
  {
    table: 'analytics_monthly_source',
    daily: 'analytics_daily_source',
    keys: 'country, channel, source, campaign',
    sums: SUM_SOURCE_COUNTS,
    counts: SOURCE_COUNTS,
  },
  {
    table: 'analytics_monthly_device',
    daily: 'analytics_daily_device',
    keys: 'dimension, value, country',
    sums: 'sum(count)',
    counts: 'count',
  },
] as const;

/**
 * Recomputes the rollups from the raw events, from `fromDay` on (default: the first day whose raw
 * events are all still there — retention may have cut into the oldest one). Days before it keep their
 * rollups: they are the only record left once raw events have expired. Ingestion waits meanwhile.
 * Events stored before attribution (issue 15) carry no channel: they count as Direct, or Referral when
 * they had a referrer.
 */
export async function rebuildRollups(
  pool: Pool,
  options: { timeZone: string; retentionDays: number; fromDay?: string },
): Promise<{ fromDay: string | null; events: number }> {
  const client = await pool.connect();
  try {
    // The sales' daily money (ADR 070), all time, in the zone given: in its own short transaction, so
    // sales are not held up for the whole rebuild below.
    await client.query('begin');
    await rebuildSaleRollup(client, options.timeZone);
    await client.query('commit');
    await client.query('begin');
    // The kept visitor counts too (ADR 070): a count of the rebuilt days waits for their new visitors.
    const all = [...DAILY_TABLES, ...MONTHLY_TABLES.map((m) => m.table), 'analytics_day_visitor_count'];
    await client.query(`lock table ${all.join(', ')} in exclusive mode`);
    const fromDay =
      options.fromDay ?? (await firstCompleteDay(client, options.timeZone, options.retentionDays));
    if (!fromDay) {
      await client.query('commit');
      return { fromDay: null, events: 0 };
    }
    const tz = options.timeZone;
    const run = (sql: string) => client.query<{ count: string }>(sql, [tz, fromDay]);
    // Raw events whose local day is fromDay or later: the bound is the start of that day in tz.
    const source = `(select event_type, country, referrer_host, coalesce(referrer_url, 'unknown') as referrer_url,
       session_id, visitor_id, channel, source, utm_campaign, device_type, browser, os,
       (created_at at time zone $1)::date as day
       from analytics_event where created_at >= ($2::date)::timestamp at time zone $1) e`;
    for (const table of [...DAILY_TABLES, 'analytics_day_visitor_count']) {
      await client.query(`delete from ${table} where day >= $1::date`, [fromDay]);
    }
    const inserted = await run(
      `insert into analytics_daily_type (day, event_type, count)
       select day, event_type, count(*) from ${source} group by day, event_type
       returning count`,
    );
    await run(
      `insert into analytics_daily_country (day, event_type, country, count)
       select day, event_type, country, count(*) from ${source} where country is not null
       group by day, event_type, country`,
    );
    await run(
      `insert into analytics_visit (day, session_id, visitor_id, country, channel, source, campaign, referrer, steps)
       select day, session_id, min(visitor_id), coalesce(min(country), ''),
         coalesce(min(channel), case when min(referrer_host) in ('direct', 'unknown') then 'Direct' else 'Referral' end),
         coalesce(min(source), case when min(referrer_host) in ('direct', 'unknown') then 'direct' else min(referrer_host) end),
         coalesce(min(utm_campaign), ''), min(referrer_url),
         bit_or(case event_type when 'page_view' then 1 when 'survey_started' then 2
           when 'form_submit' then 4 when 'button_click' then 8 else 0 end)::smallint
       from ${source} group by day, session_id`,
    );
    // The leads that were linked to a visit mark it again (issue 26): lead stored, beneficiary answered.
    await client.query(
      `update analytics_visit v set steps = v.steps | l.bits
       from (select opt_in_date::date as day, session_id,
               bit_or(case when beneficiary is not null then 48 else 16 end)::smallint as bits
             from website_lead where visit_tracked and opt_in_date >= $1 group by 1, 2) l
       where v.day = l.day and v.session_id = l.session_id`,
      [fromDay],
    );
    // Events stored before issue 26 carry no device: their visits are not in the breakdowns.
    await run(
      `insert into analytics_daily_device (day, dimension, value, country, count)
       select day, d.dimension, d.value, country, count(*) from (
         select day, session_id, coalesce(min(country), '') as country, min(device_type) as device_type,
           coalesce(min(browser), 'Unknown') as browser, coalesce(min(os), 'Unknown') as os
         from ${source} group by day, session_id having min(device_type) is not null) v
       cross join lateral (values ('device', device_type), ('browser', browser), ('os', os)) d(dimension, value)
       group by 1, 2, 3, 4`,
    );
    await client.query(
      `insert into analytics_day_visitor (day, visitor_id, country, channel, source, campaign)
       select distinct day, visitor_id, country, channel, source, campaign from analytics_visit
       where day >= $1::date and visitor_id is not null`,
      [fromDay],
    );
    // The closed days' unique visitors, counted once here rather than by the first dashboard (ADR 070).
    const closed = await client.query<{ day: string }>(
      `select d::date::text as day
       from (select min(day) as first from analytics_day_visitor) v,
         generate_series(greatest($1::date, v.first), ${LAST_CLOSED_DAY('$2')}, interval '1 day') d
       where v.first is not null`,
      [fromDay, tz],
    );
    await keepDayVisitorCounts(
      client,
      closed.rows.map((r) => r.day),
    );
    // A visitor counts once a day in each country / channel / source / campaign (as ingestion does).
    await client.query(
      `insert into analytics_daily_source (day, country, channel, source, campaign, ${SOURCE_COUNTS})
       select day, country, channel, source, campaign, count(*), count(distinct visitor_id), ${DEPTH_COUNTS}
       from analytics_visit where day >= $1::date group by 1, 2, 3, 4, 5`,
      [fromDay],
    );
    await client.query(
      `insert into analytics_daily_referrer (day, event_type, referrer, count)
       select day, 'visit', referrer, count(*) from analytics_visit where day >= $1::date group by 1, 3`,
      [fromDay],
    );
    await client.query(
      `insert into analytics_daily_country_referrer (country, day, event_type, referrer, count)
       select country, day, 'visit', referrer, count(*) from analytics_visit
       where day >= $1::date and country <> '' group by 1, 2, 4`,
      [fromDay],
    );
    // Months from fromDay's on are summed again from the daily rows (days before fromDay included).
    for (const { table, daily, keys, sums, counts } of MONTHLY_TABLES) {
      await client.query(`delete from ${table} where month >= date_trunc('month', $1::date)::date`, [
        fromDay,
      ]);
      await client.query(
        `insert into ${table} (month, ${keys}, ${counts})
         select date_trunc('month', day)::date, ${keys}, ${sums} from ${daily}
         where day >= date_trunc('month', $1::date)::date group by 1, ${keys}`,
        [fromDay],
      );
    }
    await client.query('commit');
    return { fromDay, events: inserted.rows.reduce((sum, r) => sum + Number(r.count), 0) };
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

async function firstCompleteDay(client: PoolClient, timeZone: string, retentionDays: number) {
  const { rows } = await client.query<{ first_day: string | null; complete: boolean | null }>(
    `select first_day::text as first_day,
            (first_day::timestamp at time zone $1) >= now() - make_interval(days => $2) as complete
     from (select (min(created_at) at time zone $1)::date as first_day from analytics_event) f`,
    [timeZone, retentionDays],
  );
  const row = rows[0];
  if (!row?.first_day) return null;
  if (row.complete) return row.first_day;
  const next = new Date(`${row.first_day}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
}

/** Deletes raw events older than the retention period, oldest first, in bounded chunks. */
export async function purgeExpiredEvents(pool: Pool, retentionDays: number, chunk = 10_000): Promise<number> {
  let total = 0;
  for (;;) {
    const { rowCount } = await pool.query(
      `delete from analytics_event where (created_at, id) in (
         select created_at, id from analytics_event
         where created_at < now() - make_interval(days => $1)
         order by created_at limit $2)`,
      [retentionDays, chunk],
    );
    total += rowCount ?? 0;
    if ((rowCount ?? 0) < chunk) break;
  }
  // Visits and the day's visitor ids are raw data too: they go with the events of their day, and so do
  // the visitor counts kept from them (ADR 070), the rollups counting those days from then on.
  for (const table of ['analytics_visit', 'analytics_day_visitor', 'analytics_day_visitor_count']) {
    await pool.query(`delete from ${table} where day < (now() - make_interval(days => $1))::date`, [
      retentionDays,
    ]);
  }
  return total;
}
