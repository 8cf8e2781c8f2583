// The leads dashboard's Revenue card (issue 34) in figures: what to ask for and how to sum it. Apart from the
// buyers' screens (admin-buyers/), so that the dashboard's chunk shares no module with theirs: a shared one
// would be one more chunk in the router's preload list (ADR 053's budget). Pure: unit-tested beside.

const USD = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** 8.5 → '$8.50'. */
export const revenueUsd = (amount: number) => USD.format(amount);

/** The day `days` after (or before, when negative) a YYYY-MM-DD day. */
export function addDays(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** The card's query: the last 30 business days, today included, a row per day. */
export function revenueRange(today: string) {
  return { from: addDays(today, -29), to: today, groupBy: 'day' as const };
}

/** Net revenue (after returns) today, over the last 7 and the last 30 days, from rows per day. */
export function revenueSummary(rows: { key: string; net: number }[], today: string) {
  // Added up in whole cents (each day's net is dollars with whole cents), so no float error builds up.
  const sum = (from: string) =>
    rows
      .filter((r) => r.key >= from && r.key <= today)
      .reduce((cents, r) => cents + Math.round(r.net * 100), 0) / 100;
  return { today: sum(today), last7: sum(addDays(today, -6)), last30: sum(addDays(today, -29)) };
}
