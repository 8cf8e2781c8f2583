// Presentation helpers of the analytics dashboard (browser only: Intl).

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

/** 'US' → 'United States'; a code Intl does not know is shown as is. */
export function countryName(code: string): string {
  try {
    return regionNames.of(code) ?? code;
  } catch {
    return code;
  }
}

const shortDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** '2026-11-22' → 'Nov 22' (the date is a calendar day already; UTC keeps it from shifting). */
export function shortMonthDay(isoDate: string): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? isoDate : shortDay.format(date);
}

export const formatCount = (n: number) => n.toLocaleString('en-US');

/** Dollars for the dashboard's money (the sources table, the daily chart): 8.5 → '$8.50'. */
export const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
