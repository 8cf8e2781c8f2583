import * as z from 'zod/mini';
import { ATTRIBUTION_LIMITS } from './attribution';
import { CHANNELS } from './channel';
import { ANALYTICS_EVENT_TYPES } from './constants';
import { ARM_KEY_PATTERN } from './experiments';
import { isSafeText } from './text-safety';

// The analytics dashboard's query (spec §5/§7, GET /api/admin/analytics), shared by the server and the
// dashboard page, which checks the filters a URL holds with it (issue 15). zod/mini: the web's admin
// chunks then share only the small zod core the landing page already loads.

/** Spec §5/§7: empty values and 'all' mean "no filter". */
const ignoredFilter = z.pipe(
  z.union([z.literal(''), z.literal('all')]),
  z.transform(() => undefined),
);

/** A real calendar day written YYYY-MM-DD (a refine: the small zod core the landing loads serves it). */
function isCalendarDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

const day = (name: string) => {
  const message = `${name} must be a date in the form YYYY-MM-DD`;
  return z.optional(
    z.union([z.string({ error: message }).check(z.refine(isCalendarDay, message)), ignoredFilter]),
  );
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The campaign filter's value for "traffic without a campaign" (issue 37): the dashboard shows such rows as
 * "(none)", and an empty value already means "no filter" (spec §5). Parsed into '' — the stored campaign of
 * that traffic — so the server filters on it.
 */
export const NO_CAMPAIGN = '(none)';

/**
 * A free-text attribution filter. Empty and 'all' are dropped by a transform after the text check, not by
 * a union with ignoredFilter: under parseAsync (how tRPC parses) zod's union let the text branch win, and
 * `campaign=all` filtered on a campaign named "all" (issue 37).
 */
const attributionFilter = (name: string, none?: string) =>
  z.optional(
    z.pipe(
      z
        .string()
        .check(
          z.trim(),
          z.maxLength(ATTRIBUTION_LIMITS.landingReferrer, `${name} is too long`),
          z.refine(isSafeText, `${name} contains invalid characters`),
        ),
      z.transform((v: string) => (v === '' || v === 'all' ? undefined : v === none ? '' : v)),
    ),
  );

export const analyticsQuerySchema = z
  .object({
    startDate: day('startDate'),
    endDate: day('endDate'),
    eventType: z.optional(
      z.union([
        z.enum(ANALYTICS_EVENT_TYPES, {
          error: `eventType must be one of: all, ${ANALYTICS_EVENT_TYPES.join(', ')}`,
        }),
        ignoredFilter,
      ]),
    ),
    country: z.optional(
      z.union([
        z.pipe(
          z
            .string()
            .check(z.refine((c) => /^[A-Za-z]{2}$/.test(c), 'country must be a two-letter country code')),
          z.transform((c: string) => c.toUpperCase()),
        ),
        ignoredFilter,
      ]),
    ),
    // Attribution filters (issue 15): they narrow the visitor counts, the funnel and the sources table.
    channel: z.optional(
      z.union([
        z.enum(CHANNELS, { error: `channel must be one of: all, ${CHANNELS.join(', ')}` }),
        ignoredFilter,
      ]),
    ),
    source: attributionFilter('source'),
    campaign: attributionFilter('campaign', NO_CAMPAIGN),
    // A landing experiment and one of its arms (issue 48): they narrow the same figures as the attribution
    // filters, to the visitors the experiment counted (its exposures) and the leads sent from its pages.
    experiment: z.optional(
      z.union([
        z.string().check(z.refine((v) => UUID.test(v), 'experiment must be an experiment id')),
        ignoredFilter,
      ]),
    ),
    arm: z.optional(
      z.union([
        z
          .string()
          .check(z.refine((v) => ARM_KEY_PATTERN.test(v), 'arm must be the key of an arm of the experiment')),
        ignoredFilter,
      ]),
    ),
  })
  .check(
    z.refine((q) => !q.startDate || !q.endDate || q.startDate <= q.endDate, {
      message: 'endDate must not be before startDate',
      path: ['endDate'],
    }),
    z.refine((q) => !q.arm || Boolean(q.experiment), {
      message: 'arm needs an experiment',
      path: ['arm'],
    }),
  );
export type AnalyticsQueryInput = z.input<typeof analyticsQuerySchema>;
export type AnalyticsQuery = z.output<typeof analyticsQuerySchema>;
