import { z } from 'zod';
import { ANALYTICS_EVENT_TYPES, type AnalyticsEventType } from './constants';
import { isSafeText } from './text-safety';

// The site-wide text rule (text-safety: no NUL, which PostgreSQL cannot store, nor other control
// characters) also here, so a bad row can never reach a batch even when the schema is used directly.

export const TRACK_LIMITS = { page: 200, referrer: 2048, sessionId: 100 } as const;

export const trackEventSchema = z.object({
  eventType: z.enum(ANALYTICS_EVENT_TYPES, {
    error: `eventType must be one of: ${ANALYTICS_EVENT_TYPES.join(', ')}`,
  }),
  page: z
    .string({ error: 'page is required' })
    .trim()
    .min(1, 'page is required')
    .max(TRACK_LIMITS.page, 'page is too long')
    .refine(isSafeText, 'page contains invalid characters'),
  referrer: z
    .string({ error: 'referrer must be a string' })
    .max(TRACK_LIMITS.referrer, 'referrer is too long')
    .refine(isSafeText, 'referrer contains invalid characters')
    .default('direct'),
  sessionId: z
    .string({ error: 'sessionId is required' })
    .trim()
    .min(1, 'sessionId is required')
    .max(TRACK_LIMITS.sessionId, 'sessionId is too long')
    .refine(isSafeText, 'sessionId contains invalid characters'),
});
export type TrackEventInput = z.input<typeof trackEventSchema>;
export type TrackEvent = z.output<typeof trackEventSchema>;

/** What counts as a click on the dashboard: a submitted form or a tracked button press. */
export const CLICK_EVENT_TYPES: readonly AnalyticsEventType[] = ['form_submit', 'button_click'];

/** Entries in topCountries and topReferrers. */
export const ANALYTICS_TOP_LIMIT = 10;

/** Spec §5/§7: empty values and 'all' mean "no filter". */
const ignoredFilter = z.union([z.literal(''), z.literal('all')]).transform(() => undefined);

const day = (name: string) =>
  z.iso
    .date({ error: `${name} must be a date in the form YYYY-MM-DD` })
    .or(ignoredFilter)
    .optional();

export const analyticsQuerySchema = z
  .object({
    startDate: day('startDate'),
    endDate: day('endDate'),
    eventType: z
      .enum(ANALYTICS_EVENT_TYPES, {
        error: `eventType must be one of: all, ${ANALYTICS_EVENT_TYPES.join(', ')}`,
      })
      .or(ignoredFilter)
      .optional(),
    country: z
      .string()
      .regex(/^[A-Za-z]{2}$/, 'country must be a two-letter country code')
      .transform((c) => c.toUpperCase())
      .or(ignoredFilter)
      .optional(),
  })
  .refine((q) => !q.startDate || !q.endDate || q.startDate <= q.endDate, {
    message: 'endDate must not be before startDate',
    path: ['endDate'],
  });
export type AnalyticsQueryInput = z.input<typeof analyticsQuerySchema>;
export type AnalyticsQuery = z.output<typeof analyticsQuerySchema>;

/** Spec §3 analytics response. Countries are ISO 3166-1 alpha-2 codes; dates are YYYY-MM-DD. */
export type AnalyticsSummary = {
  totalPageViews: number;
  totalClicks: number;
  totalSurveyStarts: number;
  uniqueCountries: number;
  topCountries: { country: string; count: number }[];
  topReferrers: { referrer: string; count: number }[];
  dailyViews: { date: string; views: number; clicks: number; surveyStarts: number }[];
};
