// Business constants of the product specification (§9). One place; everything else imports them.

export const BIRTH_YEAR_MIN = 1940;
export const BIRTH_YEAR_MAX = 1994;

/** Form selectors (§5): month 1–12, day 1–31, year 1994 down to 1940 (55 values). */
export const BIRTH_MONTHS: readonly string[] = Array.from({ length: 12 }, (_, i) => String(i + 1));
export const BIRTH_DAYS: readonly string[] = Array.from({ length: 31 }, (_, i) => String(i + 1));
export const BIRTH_YEARS: readonly string[] = Array.from(
  { length: BIRTH_YEAR_MAX - BIRTH_YEAR_MIN + 1 },
  (_, i) => String(BIRTH_YEAR_MAX - i),
);

/** Admin website-lead birth-year filter: 108 years from 2007 downward. */
export const ADMIN_LEAD_BIRTH_YEARS: readonly string[] = Array.from({ length: 108 }, (_, i) =>
  String(2007 - i),
);
/** Admin API-lead birth-year filter: 55 years from 1994 downward. */
export const ADMIN_API_LEAD_BIRTH_YEARS: readonly string[] = Array.from({ length: 55 }, (_, i) =>
  String(1994 - i),
);

export const BENEFICIARY_OPTIONS = ['Child', 'Husband', 'Wife', 'Aunt', 'Uncle', 'Cousin', 'Estate'] as const;
export const BENEFICIARY_NOT_SPECIFIED = 'Not specified';
export const BENEFICIARY_VALUES = [...BENEFICIARY_OPTIONS, BENEFICIARY_NOT_SPECIFIED] as const;
export type Beneficiary = (typeof BENEFICIARY_VALUES)[number];

export const AD_PIXEL_EVENT_ID = 1912368;
export const MAX_MESSAGES_PER_MONTH = 30;

export const SESSION_STORAGE_KEYS = {
  analyticsSessionId: 'analytics_session_id',
  surveyStarted: 'survey_started',
  /** UTM parameters, click ids and landing referrer of the session (issue 15). */
  attribution: 'analytics_attribution',
} as const;

export const ANALYTICS_EVENT_TYPES = ['page_view', 'form_submit', 'survey_started', 'button_click'] as const;
export type AnalyticsEventType = (typeof ANALYTICS_EVENT_TYPES)[number];

export const ANALYTICS_REFRESH_MS = 30_000;
export const UNSUBSCRIBE_DELAY_MS = 2000;

export const TOAST = {
  limit: 1,
  removeDelayMs: 1_000_000,
  durationMs: 5000,
  swipeThreshold: 50,
  hotkey: 'F8',
} as const;

export const DEFAULT_SUPPORT_EMAIL = 'support@unclaimedfundsfinder.com';

/** TIME_ZONE when unset: the business day of the server and of the admin's clock (issue 26). */
export const DEFAULT_TIME_ZONE = 'America/New_York';
