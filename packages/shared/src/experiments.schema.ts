import { z } from 'zod';
import {
  ARM_KEY_PATTERN,
  EXPERIMENT_PAGES,
  MAX_ARMS,
  MIN_ARMS,
  PRIMARY_METRICS,
  SLOT_NAMES,
  TEXT_SLOTS,
} from './experiments';

export * from './experiments';

// Landing experiments (issue 48): what an admin may send. Every refusal names its field; an unknown slot
// is named too, with the list of those that may vary (the form, its consent text and the legal links
// never do).

const slotText = (slot: keyof typeof TEXT_SLOTS) =>
  z
    .string({ error: `${slot} must be text` })
    .trim()
    .min(1, `${slot} must not be empty (leave it out to keep the page's own)`)
    .max(TEXT_SLOTS[slot].max, `${slot} is too long (at most ${TEXT_SLOTS[slot].max} characters)`)
    // Plain text only: the page renders it as text, and markup or line breaks would only be shown as such.
    .refine(
      (v) => !/[<>\p{Cc}]/u.test(v),
      `${slot} must be plain text on one line (no <, > or control characters)`,
    );

export const armContentSchema = z.strictObject(
  {
    eyebrow: slotText('eyebrow').optional(),
    headline: slotText('headline').optional(),
    subheadline: slotText('subheadline').optional(),
    heroButton: slotText('heroButton').optional(),
    formFirst: z.boolean({ error: 'formFirst must be true or false' }).optional(),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown slot ${issue.keys.map((k) => `"${k}"`).join(', ')}: only ${SLOT_NAMES.join(', ')} can vary (the form, its consent text and the legal links are the same in every arm)`
        : 'content must be an object of slots',
  },
);

export const armSchema = z.object({
  key: z
    .string({ error: 'key is required' })
    .regex(
      ARM_KEY_PATTERN,
      'key must be 1–32 lower-case letters, digits or dashes, starting with a letter or digit',
    ),
  name: z
    .string({ error: 'name is required' })
    .trim()
    .min(1, 'name is required')
    .max(80, 'name is too long (at most 80 characters)'),
  weight: z
    .int({ error: 'weight must be a whole percentage' })
    .min(1, 'weight must be at least 1 %')
    .max(99, 'weight must be at most 99 %'),
  content: armContentSchema.default({}),
});

const armsSchema = z
  .array(armSchema, { error: 'arms must be a list of {key, name, weight, content}' })
  .min(MIN_ARMS, `an experiment has ${MIN_ARMS} to ${MAX_ARMS} arms`)
  .max(MAX_ARMS, `an experiment has ${MIN_ARMS} to ${MAX_ARMS} arms`)
  .superRefine((arms, ctx) => {
    const total = arms.reduce((s, a) => s + a.weight, 0);
    if (total !== 100)
      ctx.addIssue({ code: 'custom', message: `the weights must sum to 100 (they sum to ${total})` });
    const seen = new Set<string>();
    arms.forEach((arm, i) => {
      if (seen.has(arm.key))
        ctx.addIssue({ code: 'custom', path: [i, 'key'], message: `key "${arm.key}" is used twice` });
      seen.add(arm.key);
    });
    if (arms[0] && Object.keys(arms[0].content).length > 0)
      ctx.addIssue({
        code: 'custom',
        path: [0, 'content'],
        message: 'the first arm is the control: the page as it is, with no content',
      });
  });

const name = z
  .string({ error: 'name is required' })
  .trim()
  .min(1, 'name is required')
  .max(120, 'name is too long (at most 120 characters)');
const hypothesis = z
  .string({ error: 'hypothesis must be text' })
  .trim()
  .max(2000, 'hypothesis is too long (at most 2000 characters)');
const plannedVisitors = z
  .int({ error: 'plannedVisitors must be a whole number' })
  .min(200, 'plannedVisitors must be at least 200')
  .max(100_000_000, 'plannedVisitors is too large');

/** POST /api/admin/experiments. */
export const experimentCreateSchema = z.strictObject({
  name,
  hypothesis: hypothesis.optional(),
  page: z.enum(EXPERIMENT_PAGES, { error: 'page must be "landing"' }).default('landing'),
  primaryMetric: z
    .enum(PRIMARY_METRICS, { error: `primaryMetric must be one of ${PRIMARY_METRICS.join(', ')}` })
    .default('revenue_per_visitor'),
  /** Left out: the power calculation's default (a 5 % lead rate, a 20 % lift, 80 % power). */
  plannedVisitors: plannedVisitors.optional(),
  arms: armsSchema,
});
export type ExperimentCreate = z.output<typeof experimentCreateSchema>;

export const experimentIdSchema = z.object({ id: z.uuid({ error: 'id must be a UUID' }) });

/** PATCH /api/admin/experiments/{id}: the fields given are replaced; arms only while a draft. */
export const experimentUpdateSchema = z.strictObject({
  id: z.uuid({ error: 'id must be a UUID' }),
  name: name.optional(),
  hypothesis: hypothesis.nullable().optional(),
  primaryMetric: z
    .enum(PRIMARY_METRICS, { error: `primaryMetric must be one of ${PRIMARY_METRICS.join(', ')}` })
    .optional(),
  plannedVisitors: plannedVisitors.optional(),
  arms: armsSchema.optional(),
});
export type ExperimentUpdate = z.output<typeof experimentUpdateSchema>;

/** POST /api/admin/experiments/{id}/stop: `keep` rolls that arm out to everyone. */
export const experimentStopSchema = z.strictObject({
  id: z.uuid({ error: 'id must be a UUID' }),
  keep: z
    .string({ error: 'keep must be an arm key' })
    .regex(ARM_KEY_PATTERN, 'keep must be an arm key')
    .optional(),
});

/** The editor's preview of an arm as typed (issue 48): its content, saved or not. */
export const armPreviewSchema = z.strictObject({ content: armContentSchema });
