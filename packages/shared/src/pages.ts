import { isLeadPagePath } from './admin-paths';

// Every page path of the web app, for the client router and for the server, which answers any other
// path with the not-found page and status 404 (issue 13): crawlers do not index it, monitors see it.
export const PAGES = {
  landing: '/',
  terms: '/terms',
  privacy: '/privacy',
  privacyNotice: '/privacy-notice',
  caPrivacy: '/ca-privacy',
  contact: '/contact',
  thankYou: '/thank-you',
  unsubscribe: '/unsubscribe',
  adminLogin: '/admin/login',
  adminLeads: '/admin/leads',
  adminAnalytics: '/admin/analytics',
  adminAccount: '/admin/account',
} as const;

const KNOWN = new Set<string>(Object.values(PAGES));

/** Whether `pathname` (no query) is one of the app's pages (a lead's page too, issue 26); a trailing
 * slash is tolerated. */
export function isPagePath(pathname: string): boolean {
  const path = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  return KNOWN.has(path) || isLeadPagePath(path);
}
