// Admin page paths with a parameter (issue 26), apart from pages.ts so that the sign-in page can use them
// without pulling the page list out of the landing page's router chunk (ADR 053's budget).

/**
 * A lead's own page: /admin/leads/{id} or /admin/api-leads/{id} (the app judges the id); and lead
 * quality's review queue and settings, /admin/quality/review and /admin/quality/settings (issue 33), which
 * share that route.
 */
const LEAD_PAGE = /^\/admin\/(?:(?:api-)?leads\/[^/]+|quality\/(?:review|settings))$/;

/** Whether `path` (no query) is a lead's page or a quality screen: where sign-in may send the admin back to. */
export const isLeadPagePath = (path: string): boolean => LEAD_PAGE.test(path);
