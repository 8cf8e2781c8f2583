import { isLeadPagePath } from './admin-paths';
import { PAGES } from './pages';

// Which paths are pages, for the server (it answers every other path with the not-found page and 404).
// Apart from pages.ts so the web's router chunk holds the page list alone (ADR 053's budget, ADR 060).

const KNOWN = new Set<string>(Object.values(PAGES));

/** Whether `pathname` (no query) is one of the app's pages (a lead's page too, issue 26); a trailing
 * slash is tolerated. */
export function isPagePath(pathname: string): boolean {
  const path = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  return KNOWN.has(path) || isLeadPagePath(path);
}
