// The dates the public pages show: the legal pages' "Last updated" (always today, spec §2) and the
// footer's copyright year. The pages are rendered at build time with the tokens below in their place;
// the server fills them in per request, in the business time zone, and hands the same strings to the
// browser in the page's config, which the app then renders: hydration finds the very text it renders
// (ADR 053).

export type PageDates = { today: string; year: string };

/** What the build-time render writes where the dates go; replaced by the server on every answer. */
export const PAGE_DATE_TOKENS: PageDates = { today: '%%PAGE_TODAY%%', year: '%%PAGE_YEAR%%' };

/** The dates as shown on `now`'s calendar day in `timeZone` (default: the runtime's), e.g. "November 23, 2026". */
export function pageDates(now: Date, timeZone?: string): PageDates {
  const format = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat('en-US', { timeZone, ...options }).format(now);
  return {
    today: format({ year: 'numeric', month: 'long', day: 'numeric' }),
    year: format({ year: 'numeric' }),
  };
}
