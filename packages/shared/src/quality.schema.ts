import { z } from 'zod';
import {
  ADMIN_VERDICTS,
  DEFAULT_QUALITY_SETTINGS,
  isReasonCode,
  QUALITY_REASONS,
  type QualitySettings,
  REASON_CODES,
  type ReasonCode,
  VERDICTS,
  type Verdict,
} from './quality';

// Inputs of the lead-quality admin calls (issue 33): the settings, an admin's verdict, the verdict filter.

const verdictEnum = z.enum(VERDICTS, { error: `must be one of: ${VERDICTS.join(', ')}` });

const wholeNumber = (name: string, min: number, max: number) =>
  z
    .number({ error: `${name} must be a whole number from ${min} to ${max}` })
    .int(`${name} must be a whole number from ${min} to ${max}`)
    .min(min, `${name} must be a whole number from ${min} to ${max}`)
    .max(max, `${name} must be a whole number from ${min} to ${max}`);

const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
/** A phone in the allow list: ten US digits (separators and a leading +1/1 allowed). */
const ALLOWED_PHONE = /^(?:\+?1[\s.-]?)?(?:\(\d{3}\)|\d{3})[\s.-]?\d{3}[\s.-]?\d{4}$/;

/**
 * PUT /api/admin/quality/settings: the whole settings object. `actions` may name only some codes: the
 * others keep their default action. Every refusal names its field.
 */
export const qualitySettingsInputSchema = z
  .object({
    actions: z
      .record(z.string(), verdictEnum, { error: 'actions must map reason codes to accept, hold or reject' })
      .superRefine((actions, ctx) => {
        for (const code of Object.keys(actions)) {
          if (!isReasonCode(code)) {
            ctx.addIssue({
              code: 'custom',
              path: [code],
              message: `unknown reason code '${code}'; the codes are: ${REASON_CODES.join(', ')}`,
            });
          }
        }
      })
      .default({}),
    duplicateWindowDays: wholeNumber('duplicateWindowDays', 1, 365),
    velocity: z.object(
      {
        per10Minutes: wholeNumber('velocity.per10Minutes', 1, 1000),
        perDay: wholeNumber('velocity.perDay', 1, 10000),
      },
      { error: 'velocity must be { per10Minutes, perDay }' },
    ),
    minSecondsToSubmit: wholeNumber('minSecondsToSubmit', 0, 600),
    allow: z
      .object(
        {
          emailDomains: z
            .array(
              z
                .string()
                .trim()
                .toLowerCase()
                .refine((d) => DOMAIN.test(d), 'must be a domain name such as example.org'),
              { error: 'allow.emailDomains must be a list of domain names' },
            )
            .max(500, 'allow.emailDomains may hold at most 500 domains')
            .default([]),
          phones: z
            .array(
              z
                .string()
                .trim()
                .refine((p) => ALLOWED_PHONE.test(p), 'must be a 10-digit US phone number'),
              { error: 'allow.phones must be a list of phone numbers' },
            )
            .max(500, 'allow.phones may hold at most 500 numbers')
            .default([]),
        },
        { error: 'allow must be { emailDomains, phones }' },
      )
      .default({ emailDomains: [], phones: [] }),
  })
  .strict()
  .transform(
    (input): QualitySettings => ({
      ...input,
      actions: {
        ...DEFAULT_QUALITY_SETTINGS.actions,
        ...(input.actions as Partial<Record<ReasonCode, Verdict>>),
      },
    }),
  );
export type QualitySettingsInput = z.input<typeof qualitySettingsInputSchema>;

/** POST /api/admin/leads/{id}/verdict (and api-leads): release (accept) or reject, with an optional note. */
export const verdictInputSchema = z.object({
  id: z.uuid({ error: 'Lead id must be a UUID' }),
  verdict: z.enum(ADMIN_VERDICTS, { error: "verdict must be 'accept' or 'reject'" }),
  note: z.string().trim().max(500, 'note must be at most 500 characters').optional(),
});
export type VerdictInput = z.output<typeof verdictInputSchema>;

/** The verdict filter of both lead lists, their exports and "select all matching". */
export const verdictFilter = z.preprocess(
  (v) => (v === '' || v === 'all' || v === null ? undefined : v),
  z.enum(VERDICTS, { error: `verdict must be one of: ${VERDICTS.join(', ')}` }).optional(),
);

/** Bulk release or reject from the review queue. */
export const bulkVerdictInputSchema = z.object({
  ids: z
    .array(z.uuid({ error: 'ids must contain lead ids (UUIDs)' }), {
      error: 'ids must be a list of lead ids',
    })
    .min(1, 'ids must contain at least one lead id')
    .max(1000, 'ids may contain at most 1000 lead ids'),
  verdict: z.enum(ADMIN_VERDICTS, { error: "verdict must be 'accept' or 'reject'" }),
  note: z.string().trim().max(500, 'note must be at most 500 characters').optional(),
});
export type BulkVerdictInput = z.output<typeof bulkVerdictInputSchema>;

/** The reason codes with their default actions and words (for the settings screen). */
export const REASON_LIST = REASON_CODES.map((code) => ({ code, ...QUALITY_REASONS[code] }));
