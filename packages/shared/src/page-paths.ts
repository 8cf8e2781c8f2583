import { isLeadPagePath } from './admin-paths';
import { PAGES } from './pages';

// Which paths are pages, for the server (it answers every other path with the not-found page and 404).
// Apart from pages.ts so the web's router chunk holds the page list alone (ADR 053's budget, ADR 060).

const KNOWN = new Set<string>(Object.values(PAGES));

const withoutTrailingSlash = (pathname: string) =>
  pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;

/** Whether `pathname` (no query) is one of the app's pages (a lead's page too, issue 26); a trailing
 * slash is tolerated. */
export function isPagePath(pathname: string): boolean {
  const path = withoutTrailingSlash(pathname);
  return KNOWN.has(path) || isLeadPagePath(path);
}

/**
 * The served document of the pages behind sign-in, as pages.json names it (web/prerender.mjs): the app
 * shell with "Checking authentication..." painted before the admin area's code has loaded (ADR 071).
 */
export const SIGNED_IN_DOCUMENT = '/admin/*';

/** Whether `pathname` is a page behind sign-in: every admin page but the sign-in page itself. */
export function isSignedInPagePath(pathname: string): boolean {
  const path = withoutTrailingSlash(pathname);
  return path.startsWith('/admin/') && path !== PAGES.adminLogin && isPagePath(path);
}
