// Admin page paths with a parameter (issue 26), apart from pages.ts so that the sign-in page can use them
// without pulling the page list out of the landing page's router chunk (ADR 053's budget).

/**
 * A lead's own page: /admin/leads/{id} or /admin/api-leads/{id} (the app judges the id); lead quality's
 * review queue and settings, /admin/quality/review and /admin/quality/settings (issue 33); and the lead
 * buyers' screens (issue 34), /admin/buyers, /admin/buyers/new and /admin/buyers/{id}; and the ad costs
 * screen (issue 35), /admin/costs: all share that route.
 */
const LEAD_PAGE =
  /^\/admin\/(?:(?:api-)?leads\/[^/]+|quality\/(?:review|settings)|buyers(?:\/[^/]+)?|costs|experiments(?:\/[^/]+)?)$/;

/** Whether `path` (no query) is a lead's page, a quality, a buyers or the ad costs screen: where sign-in
 * may send the admin back to. */
export const isLeadPagePath = (path: string): boolean => LEAD_PAGE.test(path);

/** Whether `path` (no query, no trailing slash) is one of the buyers screens (issue 34). */
export const isBuyerPagePath = (path: string): boolean => /^\/admin\/buyers(?:\/[^/]+)?$/.test(path);

/** Whether `path` (no query, no trailing slash) is one of the landing experiments' screens (issue 48). */
export const isExperimentPagePath = (path: string): boolean =>
  /^\/admin\/experiments(?:\/[^/]+)?$/.test(path);

/** Whether `path` (no query, no trailing slash) is the ad costs screen (issue 35). */
export const isCostsPagePath = (path: string): boolean => path === '/admin/costs';

/** The sign-in page's query flag for "this tab's session ended while a page was open" (issue 37). */
export const SESSION_ENDED_SEARCH = { key: 'session', value: 'ended' } as const;

/** The sign-in page to send a tab to: with the session-ended notice or not, and back to a lead's page. */
export function signInPath(from: string, sessionEnded: boolean): string {
  const params = new URLSearchParams();
  if (sessionEnded) params.set(SESSION_ENDED_SEARCH.key, SESSION_ENDED_SEARCH.value);
  if (isLeadPagePath(from)) params.set('next', from);
  const query = params.toString();
  return query ? `/admin/login?${query}` : '/admin/login';
}
