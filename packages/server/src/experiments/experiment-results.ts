import { DEFAULT_RETURN_WINDOW_DAYS } from '@uf/shared/buyers';
import { type ArmSummary, type Comparison, compare, sampleRatioPValue } from '@uf/shared/experiment-stats';
import { ENOUGH_DATA, type PrimaryMetric, SRM_P_VALUE_WARNING } from '@uf/shared/experiments';
import { dollarsOf } from '@uf/shared/money';
import type { Pool } from 'pg';
import type { LiveExperiment } from './experiment.service';

// An experiment's results (issue 48, ADR 075): per arm the visitors exposed, the leads that carry the
// arm, how many the quality checks accepted, how many were sold (returned ones included) and returned, and
// the money (gross revenue, net after returns — read from the sales, as the analytics sources table reads
// them); then, on the primary metric, each arm against the control with both intervals, the
// sample-ratio check, the share of visitors seen in more than one arm, and a verdict once there is
// enough data. Money is summed in cents in SQL and turned into dollars only here, at the edge.

const DAY_MS = 86_400_000;

type ArmCounts = {
  visitors: number;
  leads: number;
  accepted: number;
  sold: number;
  returned: number;
  revenueCents: number;
  netCents: number;
  /** Σ(net cents per lead)², for the revenue metric's variance (a visitor sends at most one lead). */
  netSquares: number;
  netLeads: number;
};

const emptyCounts = (): ArmCounts => ({
  visitors: 0,
  leads: 0,
  accepted: 0,
  sold: 0,
  returned: 0,
  revenueCents: 0,
  netCents: 0,
  netSquares: 0,
  netLeads: 0,
});

/** The primary metric of an arm as the statistics take it: n, Σx and Σx² per visitor (cents for money). */
export function summaryOf(metric: PrimaryMetric, c: ArmCounts): ArmSummary {
  if (metric === 'lead_rate') return { n: c.visitors, sum: c.leads, sumSquares: c.leads };
  if (metric === 'accepted_lead_rate') return { n: c.visitors, sum: c.accepted, sumSquares: c.accepted };
  return { n: c.visitors, sum: c.netCents, sumSquares: c.netSquares };
}

const conversionsOf = (metric: PrimaryMetric, c: ArmCounts) =>
  metric === 'lead_rate' ? c.leads : metric === 'accepted_lead_rate' ? c.accepted : c.netLeads;

const METRIC_WORDS: Record<PrimaryMetric, string> = {
  revenue_per_visitor: 'net revenue per visitor',
  accepted_lead_rate: 'accepted leads per visitor',
  lead_rate: 'leads per visitor',
};

const percent = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} %`;

/** The verdict in plain words, for the primary metric's sequential intervals. */
export function verdictOf(
  metric: PrimaryMetric,
  comparisons: { armName: string; c: Comparison }[],
  srmOk: boolean,
): string {
  const lines = comparisons.map(({ armName, c }) => {
    const iv = c.sequential.relative ?? c.sequential.absolute;
    const shown = c.sequential.relative
      ? `${percent(c.relative ?? 0)} (95 % always-valid interval ${percent(iv.low)} to ${percent(iv.high)})`
      : '';
    if (c.sequential.absolute.low > 0)
      return `${armName} beats the control on ${METRIC_WORDS[metric]}: ${shown}.`;
    if (c.sequential.absolute.high < 0)
      return `${armName} loses to the control on ${METRIC_WORDS[metric]}: ${shown}.`;
    return `No difference shown yet between ${armName} and the control on ${METRIC_WORDS[metric]}: the interval still includes no change${shown ? ` ${shown}` : ''}.`;
  });
  if (!srmOk)
    lines.unshift(
      'Warning: the visitors are not split as the weights ask (sample-ratio mismatch): find the cause before trusting any of this.',
    );
  return lines.join(' ');
}

export async function experimentResults(pool: Pool, experiment: LiveExperiment, now: Date) {
  const id = experiment.id;
  const [exposures, multiple, leads, window] = await Promise.all([
    pool.query<{ arm: string; visitors: string }>(
      'select arm, count(*)::text as visitors from experiment_exposure where experiment_id = $1 group by arm',
      [id],
    ),
    pool.query<{ multiple: string; total: string }>(
      `select count(*) filter (where arms > 1)::text as multiple, count(*)::text as total
       from (select count(*) as arms from experiment_exposure where experiment_id = $1 group by day, visitor_id) v`,
      [id],
    ),
    pool.query<{
      arm: string;
      leads: string;
      accepted: string;
      sold: string;
      returned: string;
      revenue_cents: string;
      net_cents: string;
      net_squares: string;
      net_leads: string;
    }>(
      `select l.experiment_arm as arm, count(*)::text as leads,
         count(*) filter (where l.quality_verdict = 'accept')::text as accepted,
         count(s.lead_id)::text as sold,
         count(s.returned_at)::text as returned,
         coalesce(sum(s.price_cents), 0)::text as revenue_cents,
         coalesce(sum(s.price_cents) filter (where s.returned_at is null), 0)::text as net_cents,
         coalesce(sum(s.price_cents::float8 * s.price_cents) filter (where s.returned_at is null), 0)::text
           as net_squares,
         count(*) filter (where s.returned_at is null and s.price_cents > 0)::text as net_leads
       from website_lead l
       left join lead_sale s on s.lead_id = l.id and s.lead_kind = 'website' and s.status = 'sold'
       where l.experiment_id = $1
       group by 1`,
      [id],
    ),
    pool.query<{ open: string }>(
      `select count(*)::text as open
       from website_lead l
       join lead_sale s on s.lead_id = l.id and s.lead_kind = 'website' and s.status = 'sold'
       left join buyer b on b.id = s.buyer_id
       where l.experiment_id = $1 and s.returned_at is null and s.sold_at is not null
         and s.sold_at + make_interval(days => coalesce((b.config->>'returnWindowDays')::int, $3)) > $2`,
      [id, now, DEFAULT_RETURN_WINDOW_DAYS],
    ),
  ]);

  const counts = new Map(experiment.arms.map((a) => [a.key, emptyCounts()]));
  for (const r of exposures.rows) {
    const c = counts.get(r.arm);
    if (c) c.visitors = Number(r.visitors);
  }
  for (const r of leads.rows) {
    const c = counts.get(r.arm);
    if (!c) continue;
    c.leads = Number(r.leads);
    c.accepted = Number(r.accepted);
    c.sold = Number(r.sold);
    c.returned = Number(r.returned);
    c.revenueCents = Number(r.revenue_cents);
    c.netCents = Number(r.net_cents);
    c.netSquares = Number(r.net_squares);
    c.netLeads = Number(r.net_leads);
  }

  const metric = experiment.primaryMetric;
  const isMoney = metric === 'revenue_per_visitor';
  const perVisitor = (x: number, n: number) => (n > 0 ? x / n : 0);
  const arms = experiment.arms.map((arm, i) => {
    const c = counts.get(arm.key) ?? emptyCounts();
    return {
      key: arm.key,
      name: arm.name,
      weight: arm.weight,
      control: i === 0,
      visitors: c.visitors,
      leads: c.leads,
      accepted: c.accepted,
      sold: c.sold,
      returned: c.returned,
      revenue: dollarsOf(c.revenueCents),
      net: dollarsOf(c.netCents),
      leadRate: perVisitor(c.leads, c.visitors),
      acceptedLeadRate: perVisitor(c.accepted, c.visitors),
      revenuePerVisitor: perVisitor(c.netCents, c.visitors) / 100,
      conversions: conversionsOf(metric, c),
    };
  });

  const [controlArm, ...others] = experiment.arms;
  const controlCounts = counts.get(controlArm?.key ?? '') ?? emptyCounts();
  // Cents to dollars at the edge (a division: 35 / 100 is 0.35, where 35 × 0.01 is not).
  const unit = (x: number) => (isMoney ? x / 100 : x);
  const scaled = (iv: { low: number; high: number }) => ({ low: unit(iv.low), high: unit(iv.high) });
  const compared: { armName: string; c: Comparison }[] = [];
  const comparisons = others.flatMap((arm) => {
    const treatment = summaryOf(metric, counts.get(arm.key) ?? emptyCounts());
    const control = summaryOf(metric, controlCounts);
    // The sequence is tuned at the visitors these two arms are planned to reach together.
    const planned = Math.max(
      1,
      Math.round((experiment.plannedVisitors * (arm.weight + (controlArm?.weight ?? 0))) / 100),
    );
    const c = compare(control, treatment, planned);
    if (!c) return [];
    compared.push({ armName: arm.name, c });
    return [
      {
        arm: arm.key,
        metric,
        control: unit(perVisitor(control.sum, control.n)),
        treatment: unit(perVisitor(treatment.sum, treatment.n)),
        absolute: unit(c.absolute),
        relative: c.relative,
        sequential: { absolute: scaled(c.sequential.absolute), relative: c.sequential.relative },
        fixed: { absolute: scaled(c.fixed.absolute), relative: c.fixed.relative },
        pValue: c.pValue,
      },
    ];
  });

  const srmP = sampleRatioPValue(
    arms.map((a) => a.visitors),
    arms.map((a) => a.weight),
  );
  const srmOk = srmP >= SRM_P_VALUE_WARNING;
  const started = experiment.startedAt ? new Date(experiment.startedAt).getTime() : null;
  const ended = experiment.stoppedAt ? new Date(experiment.stoppedAt).getTime() : now.getTime();
  const daysRunning = started === null ? 0 : Math.max(0, Math.floor((ended - started) / DAY_MS));
  const enoughData =
    daysRunning >= ENOUGH_DATA.days &&
    arms.every(
      (a) => a.visitors >= ENOUGH_DATA.visitorsPerArm && a.conversions >= ENOUGH_DATA.conversionsPerArm,
    ) &&
    compared.length === others.length;
  const m = multiple.rows[0];
  const total = Number(m?.total ?? 0);

  return {
    experimentId: id,
    status: experiment.status,
    primaryMetric: metric,
    plannedVisitors: experiment.plannedVisitors,
    daysRunning,
    arms,
    comparisons,
    srm: { pValue: srmP, ok: srmOk },
    multipleExposureRate: total > 0 ? Number(m?.multiple ?? 0) / total : 0,
    enoughData,
    verdict: enoughData ? verdictOf(metric, compared, srmOk) : null,
    salesInReturnWindow: Number(window.rows[0]?.open ?? 0),
  };
}

export type ExperimentResults = Awaited<ReturnType<typeof experimentResults>>;
