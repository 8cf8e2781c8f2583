// Where the lead-quality screens live (issue 33): /admin/quality/review and /admin/quality/settings,
// through the lead pages' route (/admin/{table}/{id}, router.tsx: no second route on the landing page's
// budget, ADR 053). Apart from the screens so that a link to them does not load them.

export const QUALITY_PATHS = {
  review: '/admin/quality/review',
  settings: '/admin/quality/settings',
} as const;

/** Whether `path` (no query, no trailing slash) is one of the lead-quality screens. */
export const isQualityPagePath = (path: string): boolean =>
  path === QUALITY_PATHS.review || path === QUALITY_PATHS.settings;

export const REVIEW_QUEUE_LINK = {
  to: '/admin/$table/{-$id}',
  params: { table: 'quality', id: 'review' },
} as const;
export const QUALITY_SETTINGS_LINK = {
  to: '/admin/$table/{-$id}',
  params: { table: 'quality', id: 'settings' },
} as const;
