// Splits a day range into whole calendar months (read from the monthly rollups) and the loose days at
// either end (read from the daily rollups). The dashboard's big lists — countries and referrers — then
// cost one row per month rather than one per day, whatever the range (ADR 020).

/** Inclusive 'YYYY-MM-DD' bounds; undefined means unbounded on that side. */
export type DayRange = { from?: string; to?: string };

export type RangeSplit = {
  /** Months to read from the monthly tables (bounds are first days of months, inclusive); null: none. */
  months: DayRange | null;
  /** Day ranges to read from the daily tables. */
  days: DayRange[];
};

const parse = (day: string) => new Date(`${day}T00:00:00Z`);
const format = (date: Date) => date.toISOString().slice(0, 10);

function firstOfMonth(day: string): string {
  return `${day.slice(0, 7)}-01`;
}

function addMonths(day: string, months: number): string {
  const d = parse(firstOfMonth(day));
  d.setUTCMonth(d.getUTCMonth() + months);
  return format(d);
}

export function addDays(day: string, days: number): string {
  const d = parse(day);
  d.setUTCDate(d.getUTCDate() + days);
  return format(d);
}

export function splitRange({ from, to }: DayRange): RangeSplit {
  // First month wholly inside the range, and the first month after the last whole one.
  const fullFrom = from === undefined ? undefined : from === firstOfMonth(from) ? from : addMonths(from, 1);
  const fullUntil =
    to === undefined ? undefined : addDays(to, 1) === addMonths(to, 1) ? addMonths(to, 1) : firstOfMonth(to);
  if (fullFrom !== undefined && fullUntil !== undefined && fullFrom >= fullUntil) {
    return { months: null, days: [{ from, to }] };
  }
  const days: DayRange[] = [];
  if (from !== undefined && fullFrom !== undefined && from < fullFrom)
    days.push({ from, to: addDays(fullFrom, -1) });
  if (to !== undefined && fullUntil !== undefined && to >= fullUntil) days.push({ from: fullUntil, to });
  const months: DayRange = {};
  if (fullFrom !== undefined) months.from = fullFrom;
  if (fullUntil !== undefined) months.to = addMonths(fullUntil, -1);
  return { months, days };
}

/** Days from `from` to `to`, both included. */
export const daysBetween = (from: string, to: string) =>
  Math.round((parse(to).getTime() - parse(from).getTime()) / 86_400_000) + 1;

/**
 * The period the summary cards are compared over and the one before it, of the same length (issue 15):
 * the filter's dates (an open end is today; an open start is 30 days before the end), else the last 30
 * days.
 */
export function comparisonPeriods(
  range: DayRange,
  today: string,
): { current: Required<DayRange>; previous: Required<DayRange> } {
  let to = range.to ?? today;
  if (range.from && range.from > to) to = range.from;
  const from = range.from ?? addDays(to, -29);
  const length = daysBetween(from, to);
  return {
    current: { from, to },
    previous: { from: addDays(from, -length), to: addDays(from, -1) },
  };
}
