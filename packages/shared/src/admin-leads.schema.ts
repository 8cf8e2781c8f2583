import { z } from 'zod';
import { AD_CONVERSION_COUNTS } from './ad-conversions';
import { API_LEAD_FIELDS, MAX_BULK_DELETE, MAX_PAGE_SIZE, WEBSITE_LEAD_FIELDS } from './admin-leads';
import { ATTRIBUTION_LIMITS } from './attribution';
import { CHANNELS } from './channel';
import { verdictFilter } from './quality.schema';
import { US_STATE_CODES } from './state-sites';

// Inputs of the admin leads dashboard (spec §5 filters, §7 admin calls): one schema per call, used by
// the tRPC procedures, the REST/stream routes and the web filters alike.

/** Spec §5: empty values and 'all' are not filters. */
const unset = (v: unknown) => (v === '' || v === 'all' || v === null ? undefined : v);

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
function isCalendarDate(v: string): boolean {
  if (!DATE_PATTERN.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}

const stateFilter = z.preprocess(
  (v) => (typeof v === 'string' ? unset(v.trim())?.toString().toUpperCase() : unset(v)),
  z.enum(US_STATE_CODES, { error: 'state must be one of the 50 two-letter US state codes' }).optional(),
);

const birthYearFilter = z.preprocess(
  (v) => (typeof v === 'string' ? unset(v.trim()) : unset(v)),
  z.coerce
    .number({ error: 'birthYear must be a four-digit year' })
    .int('birthYear must be a four-digit year')
    .min(1000, 'birthYear must be a four-digit year')
    .max(9999, 'birthYear must be a four-digit year')
    .optional(),
);

const dateFilter = (name: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? unset(v.trim()) : unset(v)),
    z
      .string({ error: `${name} must be a date (YYYY-MM-DD)` })
      .refine(isCalendarDate, `${name} must be a date (YYYY-MM-DD)`)
      .optional(),
  );

const consentFilter = z.preprocess(
  unset,
  z
    .union([z.boolean(), z.enum(['true', 'false'])], { error: "consentGiven must be 'true' or 'false'" })
    .transform((v) => v === true || v === 'true')
    .optional(),
);

/** Free-text search over name, e-mail and phone (issue 16): 2–100 characters. */
const searchFilter = z.preprocess(
  (v) => (typeof v === 'string' ? unset(v.trim()) : unset(v)),
  z
    .string({ error: 'search must be text' })
    .min(2, 'search needs at least 2 characters')
    .max(100, 'search must be at most 100 characters')
    .optional(),
);

/** Attribution filters of website leads (issue 15): exact source or campaign as the table shows it. */
const attributionFilter = (name: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? unset(v.trim()) : unset(v)),
    z
      .string({ error: `${name} must be text` })
      .max(ATTRIBUTION_LIMITS.landingReferrer, `${name} is too long`)
      .optional(),
  );

const apiLeadFilterFields = z.object({
  search: searchFilter,
  state: stateFilter,
  birthYear: birthYearFilter,
  startDate: dateFilter('startDate'),
  endDate: dateFilter('endDate'),
  // Lead quality (issue 33): accept, hold or reject.
  verdict: verdictFilter,
});
/** An inverted range is refused with a message (issue 37: it answered "no leads" without a word). */
const rangeInOrder = (q: { startDate?: string; endDate?: string }) =>
  !q.startDate || !q.endDate || q.startDate <= q.endDate;
const RANGE_ERROR = { message: 'endDate must not be before startDate', path: ['endDate'] };
export const apiLeadFiltersSchema = apiLeadFilterFields.refine(rangeInOrder, RANGE_ERROR);
const websiteLeadFilterFields = apiLeadFilterFields.extend({
  consentGiven: consentFilter,
  channel: z.preprocess(
    (v) => (typeof v === 'string' ? unset(v.trim()) : unset(v)),
    z.enum(CHANNELS, { error: `channel must be one of: ${CHANNELS.join(', ')}` }).optional(),
  ),
  source: attributionFilter('source'),
  campaign: attributionFilter('campaign'),
});
export const websiteLeadFiltersSchema = websiteLeadFilterFields.refine(rangeInOrder, RANGE_ERROR);

export type ApiLeadFilters = z.output<typeof apiLeadFiltersSchema>;
export type WebsiteLeadFilters = z.output<typeof websiteLeadFiltersSchema>;
/** What the web filter card holds: strings, '' or 'all' meaning "no filter". */
export type WebsiteLeadFilterValues = { [K in keyof WebsiteLeadFilters]-?: string };
export type ApiLeadFilterValues = { [K in keyof ApiLeadFilters]-?: string };

const positiveInt = (name: string, max: number) =>
  z.coerce
    .number({ error: `${name} must be a whole number from 1 to ${max}` })
    .int(`${name} must be a whole number from 1 to ${max}`)
    .min(1, `${name} must be a whole number from 1 to ${max}`)
    .max(max, `${name} must be a whole number from 1 to ${max}`);

function pagingSchema<const F extends readonly [string, ...string[]]>(fields: F) {
  return z.object({
    page: z.preprocess(unset, positiveInt('page', 1_000_000).optional()),
    pageSize: z.preprocess(unset, positiveInt('pageSize', MAX_PAGE_SIZE).optional()),
    sort: z.preprocess(
      unset,
      z
        .enum(fields, { error: `sort must be one of: ${fields.join(', ')}` })
        .default('createdAt' as F[number]),
    ),
    order: z.preprocess(
      unset,
      z.enum(['asc', 'desc'], { error: "order must be 'asc' or 'desc'" }).default('desc'),
    ),
  });
}

export const websiteLeadListSchema = websiteLeadFilterFields
  .extend(pagingSchema(WEBSITE_LEAD_FIELDS).shape)
  .refine(rangeInOrder, RANGE_ERROR);
export const apiLeadListSchema = apiLeadFilterFields
  .extend(pagingSchema(API_LEAD_FIELDS).shape)
  .refine(rangeInOrder, RANGE_ERROR);
export type WebsiteLeadListQuery = z.output<typeof websiteLeadListSchema>;
export type ApiLeadListQuery = z.output<typeof apiLeadListSchema>;

/**
 * The conversion exports' range (issue 24): `from` and `to` are required whole business days in
 * TIME_ZONE, both inclusive, `to` not before `from`.
 */
const requiredDate = (name: string) =>
  z
    .string({ error: `${name} is required (YYYY-MM-DD)` })
    .trim()
    .min(1, `${name} is required (YYYY-MM-DD)`)
    .refine(isCalendarDate, `${name} must be a date (YYYY-MM-DD)`);
const adRangeFields = { from: requiredDate('from'), to: requiredDate('to') };
// Compared only when both are dates (a bad from is named once, as from).
const adRangeInOrder = {
  check: (q: { from: string; to: string }) =>
    !isCalendarDate(q.from) || !isCalendarDate(q.to) || q.to >= q.from,
  error: { path: ['to'], message: 'to must be on or after from' },
};
/**
 * The conversion files' query (issue 35): the range, and which leads count — `accepted` (the default:
 * the leads lead quality accepted) or `sold` (only the leads a buyer bought, returned ones included:
 * their retraction is the adjustments file).
 */
export const adConversionsQuerySchema = z
  .object({
    ...adRangeFields,
    count: z.preprocess(
      unset,
      z.enum(AD_CONVERSION_COUNTS, { error: "count must be 'accepted' or 'sold'" }).default('accepted'),
    ),
  })
  .refine(adRangeInOrder.check, adRangeInOrder.error);
export type AdConversionsQuery = z.output<typeof adConversionsQuerySchema>;
/** The Google Ads conversion adjustments file's query: the range alone (issue 35). */
export const adAdjustmentsQuerySchema = z
  .object(adRangeFields)
  .refine(adRangeInOrder.check, adRangeInOrder.error);
export type AdAdjustmentsQuery = z.output<typeof adAdjustmentsQuerySchema>;

export const bulkDeleteSchema = z.object({
  ids: z
    .array(z.uuid({ error: 'ids must contain lead ids (UUIDs)' }), {
      error: 'ids must be a list of lead ids',
    })
    .min(1, 'ids must contain at least one lead id')
    .max(MAX_BULK_DELETE, `ids may contain at most ${MAX_BULK_DELETE} lead ids`),
});
export type BulkDeleteInput = z.infer<typeof bulkDeleteSchema>;

/**
 * "Select all N matching" (issue 26): delete every lead the filters match, not a list of ids. The admin
 * confirmed N (`expectedCount`); the server deletes only when N still match, so nothing the admin did
 * not see counted goes with them.
 */
const expectedCountSchema = z.coerce
  .number({ error: 'expectedCount must be the number of matching leads you confirmed' })
  .int('expectedCount must be a whole number')
  .min(1, 'expectedCount must be at least 1');
export const websiteDeleteMatchingSchema = z.object({
  filters: websiteLeadFiltersSchema,
  expectedCount: expectedCountSchema,
});
export const apiDeleteMatchingSchema = z.object({
  filters: apiLeadFiltersSchema,
  expectedCount: expectedCountSchema,
});

export const auditLogQuerySchema = z.object({
  limit: z.preprocess(unset, positiveInt('limit', 500).default(100)),
  before: z.preprocess(unset, positiveInt('before', Number.MAX_SAFE_INTEGER).optional()),
});
export type AuditLogQuery = z.output<typeof auditLogQuerySchema>;
