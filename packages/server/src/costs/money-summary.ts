import { AD_COST_CURRENCY } from '@uf/shared/ad-costs';
import type { SourceRow } from '@uf/shared/analytics.schema';
import { NO_CAMPAIGN } from '@uf/shared/analytics-query.schema';
import { getSourcesReport, type SourcesReport } from '../analytics/analytics-sources';
import type { SummaryRow, SummarySection } from '../email/email-message';
import type { SummarySectionSource } from '../email/email-reports.service';
import { dateAndTimeIn } from '../platform/time';

// The e-mail summaries' money section (issue 35): leads sold and returned, revenue (gross) and net (after
// returns) in the words of ADR 073, cost and profit (net − cost) over the report's days, and the campaigns
// that made and lost the most. The figures are the analytics sources
// table's (getSourcesReport): one computation, so the e-mail and the dashboard never disagree.

/** Campaigns listed at each end of the profit ranking. */
export const MONEY_CAMPAIGNS = 3;

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: AD_COST_CURRENCY });
/** 1234.5 → '$1,234.50', −15.5 → '-$15.50' (ASCII: the text part stays 7-bit). */
export const formatMoney = (dollars: number) => usd.format(dollars).replace('\u2212', '-');

const campaignLabel = (r: SourceRow) => `${r.source || '(direct)'} / ${r.campaign || NO_CAMPAIGN}`;

/** The section from a sources report (pure). */
export function moneySection(report: Pick<SourcesReport, 'sources' | 'moneyTotals'>): SummarySection {
  const { sold, returned, revenue, net, cost, profit } = report.moneyTotals;
  const rows: SummaryRow[] = [
    { label: 'Sold (returned ones included)', value: sold.toLocaleString('en-US') },
    { label: 'Returned', value: returned.toLocaleString('en-US') },
    { label: 'Revenue (gross)', value: formatMoney(revenue) },
    { label: 'Net (revenue after returns)', value: formatMoney(net) },
    { label: 'Ad cost', value: formatMoney(cost ?? 0) },
    { label: 'Profit (net - ad cost)', value: formatMoney(profit ?? net) },
  ];
  // Campaigns with money either way (a row with neither revenue nor cost has no profit to rank).
  const ranked = report.sources
    .filter(
      (r): r is SourceRow & { profit: number } => r.profit !== null && (r.sold > 0 || (r.cost ?? 0) > 0),
    )
    .sort((a, b) => b.profit - a.profit || campaignLabel(a).localeCompare(campaignLabel(b)));
  const top = ranked.slice(0, MONEY_CAMPAIGNS);
  // The bottom ones, worst first, never repeating one already at the top.
  const bottom = ranked.slice(Math.max(top.length, ranked.length - MONEY_CAMPAIGNS)).reverse();
  for (const r of top) rows.push({ label: `Top: ${campaignLabel(r)}`, value: formatMoney(r.profit) });
  for (const r of bottom) rows.push({ label: `Bottom: ${campaignLabel(r)}`, value: formatMoney(r.profit) });
  return {
    title: 'Money',
    rows,
    // Short lines: a text part with a line over 76 characters goes out quoted-printable.
    note: ranked.length
      ? 'Top and bottom campaigns (source / campaign) by profit.'
      : 'No campaign had revenue or ad cost in this period.',
  };
}

/** The section source for the summaries: the report's [from, to) instants as business days. */
export function moneySummarySection(timeZone: string): SummarySectionSource {
  return async (pool, { from, to }) => {
    const startDate = dateAndTimeIn(from, timeZone).date;
    const endDate = dateAndTimeIn(new Date(to.getTime() - 1), timeZone).date;
    return moneySection(await getSourcesReport(pool, { startDate, endDate }, timeZone));
  };
}
