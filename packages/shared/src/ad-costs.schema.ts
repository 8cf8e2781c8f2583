import { z } from 'zod';
import { MAX_AD_COST_CSV, MAX_AD_COST_ROWS, MAX_DAILY_COST } from './ad-costs';
import { hasWholeCents } from './money';

export * from './ad-costs';

// Ad cost (issue 35): what an admin may send. Every refusal names its field; a row whose currency is not
// the configured one is not refused here but skipped by the import (it says which and why), as a file's
// rows are.

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A real calendar day: 2026-02-30 is refused, not rolled over into March. */
const isCalendarDay = (v: string) => {
  if (!DATE.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
};
const day = (name: string) =>
  z
    .string({ error: `${name} must be a date YYYY-MM-DD` })
    .refine(isCalendarDay, `${name} must be a date YYYY-MM-DD`);
const name = (field: string, max: number) =>
  z
    .string({ error: `${field} is required` })
    .trim()
    .min(1, `${field} is required`)
    .max(max, `${field} is too long (at most ${max} characters)`);

const COST_WORDS = `cost must be a number of dollars from 0 to ${MAX_DAILY_COST}, at most 2 decimals`;

export const adCostRowSchema = z.object({
  date: day('date'),
  source: name('source', 100),
  campaign: name('campaign', 255),
  cost: z
    .number({ error: COST_WORDS })
    .min(0, COST_WORDS)
    .max(MAX_DAILY_COST, COST_WORDS)
    // Cents are whole: 12.345 would be rounded by someone, so it is refused and the sender decides.
    .refine(hasWholeCents, COST_WORDS),
  currency: z
    .string({ error: 'currency must be a three-letter code such as USD' })
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{3}$/, 'currency must be a three-letter code such as USD')
    .optional(),
});
export type AdCostRowInput = z.output<typeof adCostRowSchema>;

/** POST /api/admin/ad-costs: rows, or a platform's report as text; one of the two. */
export const adCostImportSchema = z
  .object({
    rows: z
      .array(adCostRowSchema, { error: 'rows must be a list of {date, source, campaign, cost}' })
      .min(1, 'rows must not be empty')
      .max(MAX_AD_COST_ROWS, `rows: at most ${MAX_AD_COST_ROWS} in one import`)
      .optional(),
    csv: z
      .string({ error: 'csv must be the report file as text' })
      .min(1, 'csv must not be empty')
      .max(MAX_AD_COST_CSV, `csv is too large (at most ${MAX_AD_COST_CSV} characters)`)
      .optional(),
  })
  .refine((b) => (b.rows === undefined) !== (b.csv === undefined), {
    message: 'Send either rows or csv (one of the two)',
    path: ['rows'],
  });
export type AdCostImportInput = z.output<typeof adCostImportSchema>;

const DAYS = { from: day('from'), to: day('to') };
const inOrder = (q: { from: string; to: string }) => q.from <= q.to;
const IN_ORDER = { message: 'from is after to', path: ['from'] };

/** GET /api/admin/ad-costs. */
export const adCostListQuerySchema = z.object(DAYS).refine(inOrder, IN_ORDER);

/** DELETE /api/admin/ad-costs: one source's costs over days, of one campaign or of all. */
export const adCostDeleteSchema = z
  .object({ ...DAYS, source: name('source', 100), campaign: name('campaign', 255).optional() })
  .refine(inOrder, IN_ORDER);
export type AdCostDeleteInput = z.output<typeof adCostDeleteSchema>;
