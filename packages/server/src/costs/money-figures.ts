import { dollarsOf } from '@uf/shared/money';

// The money columns of the sources table (issue 35), from whole cents: what performance marketers read
// side by side per campaign (Voluum, RedTrack, Binom). A figure that has no meaning is null — shown
// blank — never 0 or ∞: no cost has no ROI and no cost per lead, no visit no earnings per visit.

export type MoneyFigures = {
  /** USD: null when the cost cannot be known for the filter (a country: ad cost has none). */
  cost: number | null;
  /** net − cost, USD; null when the cost is. */
  profit: number | null;
  /** profit ÷ cost, percent with one decimal; null without cost. */
  roi: number | null;
  /**
   * net ÷ visits, USD rounded to the whole cent like every other money figure (issue 49: a column of
   * $5.0682, $5.163 and $9.00 read as three precisions); null without visits.
   */
  earningsPerVisit: number | null;
  /** cost ÷ accepted leads, USD; null without cost or without accepted leads. */
  costPerAcceptedLead: number | null;
};

export function moneyFigures(f: {
  netCents: number;
  costCents: number | null;
  visits: number;
  accepted: number;
}): MoneyFigures {
  const { netCents, costCents, visits, accepted } = f;
  const paid = costCents !== null && costCents > 0;
  return {
    cost: costCents === null ? null : dollarsOf(costCents),
    profit: costCents === null ? null : dollarsOf(netCents - costCents),
    roi: paid ? Math.round(((netCents - costCents) * 1000) / costCents) / 10 : null,
    earningsPerVisit: visits > 0 ? dollarsOf(Math.round(netCents / visits)) : null,
    costPerAcceptedLead: paid && accepted > 0 ? dollarsOf(Math.round(costCents / accepted)) : null,
  };
}
