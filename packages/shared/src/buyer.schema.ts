import { z } from 'zod';
import { parseTransform } from './buyer-transforms';
import {
  BUYER_ENCODINGS,
  BUYER_HTTP_METHODS,
  BUYER_LEAD_FIELDS,
  BUYER_STATUSES,
  CAP_PERIODS,
  REVENUE_GROUPS,
  RULE_OUTCOMES,
  WEEK_DAYS,
} from './buyers';
import { hasWholeCents } from './money';
import { compilePattern, RULES_MAX_PROGRAM, rulesProgramSize, rulesTooComplex } from './rule-patterns';
import { US_STATE_CODES } from './state-sites';

export * from './buyers';

// Lead buyers (issue 34, ADR 069): what an admin may send. Every refusal names its field (the 400's
// `details`). Reachability of the URLs (https, public address) depends on the server's configuration and
// is checked by the server, as for webhooks.

const oneOf = <T extends readonly [string, ...string[]]>(values: T, name: string) =>
  z.enum(values, { error: `${name} must be one of: ${values.join(', ')}` });

const number = (name: string, min: number, max: number, int = false) => {
  const words = `${name} must be ${int ? 'a whole number' : 'a number'} from ${min} to ${max}`;
  const base = z.number({ error: words }).min(min, words).max(max, words);
  return int ? base.int(words) : base;
};

/** Dollars with whole cents (money is kept in cents: 8.555 would be rounded by someone, so it is refused). */
const dollars = (name: string, max: number) => {
  const words = `${name} must be a number of dollars from 0 to ${max}, at most 2 decimals`;
  return number(name, 0, max).refine(hasWholeCents, words);
};

/**
 * A regular expression as text, in RE2 syntax (ADR 072): refused, naming the field and why, when RE2
 * cannot run it (backreferences, lookaround) or it is too long or too complex to run fast.
 */
const regexText = (name: string) =>
  z.string({ error: `${name} must be a regular expression` }).superRefine((text, ctx) => {
    const compiled = compilePattern(text);
    if (!compiled.ok) ctx.addIssue({ code: 'custom', message: `${name} ${compiled.reason}` });
  });

/** A dot path (`Result.Success`, `response.status`). */
const PATH = /^[^.\s]+(?:\.[^.\s]+)*$/;
const path = (name: string) =>
  z
    .string({ error: `${name} must be a dot path such as Result.Success` })
    .min(1, `${name} must not be empty`)
    .max(200, `${name} is too long`)
    .regex(PATH, `${name} must be a dot path such as Result.Success`);

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
const headers = (name: string) =>
  z
    .record(z.string(), z.string().max(2000, `${name}: a value is too long`), {
      error: `${name} must map header names to values`,
    })
    .superRefine((record, ctx) => {
      const names = Object.keys(record);
      if (names.length > 30) ctx.addIssue({ code: 'custom', message: `${name}: at most 30 headers` });
      for (const key of names) {
        if (!HEADER_NAME.test(key)) {
          ctx.addIssue({ code: 'custom', path: [key], message: `${name}: '${key}' is not a header name` });
        }
        if (/[\r\n]/.test(record[key] as string)) {
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: `${name}: a value may not hold a line break`,
          });
        }
      }
    });

const urlText = (name: string) =>
  z
    .string({ error: `${name} is required` })
    .trim()
    .min(1, `${name} is required`)
    .max(2000, `${name} is too long`)
    .refine((u) => URL.canParse(u), `${name} is not a URL`);

const httpDeliverySchema = z.object({
  kind: z.literal('http'),
  method: oneOf(BUYER_HTTP_METHODS, 'delivery.method').default('POST'),
  url: urlText('delivery.url'),
  testUrl: urlText('delivery.testUrl').optional(),
  encoding: oneOf(BUYER_ENCODINGS, 'delivery.encoding'),
  xmlRoot: z
    .string()
    .regex(/^[A-Za-z_][\w.-]{0,99}$/, 'delivery.xmlRoot must be an XML element name')
    .optional(),
  headers: headers('delivery.headers').optional(),
  secretHeaders: headers('delivery.secretHeaders').optional(),
  timeoutMs: number('delivery.timeoutMs', 500, 60_000, true).optional(),
});

const emailDeliverySchema = z.object({
  kind: z.literal('email'),
  to: z
    .array(z.email('delivery.to: not an e-mail address').max(254), {
      error: 'delivery.to must list addresses',
    })
    .min(1, 'delivery.to: one to five addresses')
    .max(5, 'delivery.to: one to five addresses'),
});

const deliverySchema = z.discriminatedUnion('kind', [httpDeliverySchema, emailDeliverySchema], {
  error: "delivery.kind must be 'http' or 'email'",
});

const fieldSchema = z
  .object({
    to: z.string({ error: 'fields: to is required' }).min(1, 'fields: to is required').max(200),
    from: z
      .enum(BUYER_LEAD_FIELDS, {
        error: `fields: unknown lead field (known: ${BUYER_LEAD_FIELDS.join(', ')})`,
      })
      .optional(),
    value: z.string().max(2000).optional(),
    transforms: z
      .array(
        z.string().superRefine((t, ctx) => {
          const parsed = parseTransform(t);
          if (!parsed.ok) ctx.addIssue({ code: 'custom', message: `fields: ${parsed.message}` });
        }),
      )
      .max(10, 'fields: at most 10 transforms')
      .optional(),
  })
  .refine((f) => (f.from === undefined) !== (f.value === undefined), {
    message: 'fields: give either from (a lead field) or value (a constant)',
  });

const statusMatch = z.union([z.int().min(100).max(599), z.enum(['2xx', '4xx', '5xx'])], {
  error: "responseRules: when.status must be an HTTP status or '2xx', '4xx', '5xx'",
});

/**
 * A response rule whose patterns are read by `pattern`: RE2-checked when an admin saves a buyer, plain text
 * when the buyer is shown (a rule stored before ADR 072 that RE2 refuses must still be shown, to be fixed).
 */
const ruleSchemaOf = (pattern: (name: string) => z.ZodType<string>) =>
  z.object({
    when: z
      .object({
        status: statusMatch.optional(),
        json: path('responseRules: when.json').optional(),
        xml: path('responseRules: when.xml').optional(),
        regex: pattern('responseRules: when.regex').optional(),
        equals: z.union([z.string(), z.number(), z.boolean(), z.null()]).optional(),
        matches: pattern('responseRules: when.matches').optional(),
      })
      .refine((w) => Object.keys(w).length > 0, 'responseRules: when needs at least one condition')
      .refine(
        (w) =>
          (w.equals === undefined && w.matches === undefined) || w.json !== undefined || w.xml !== undefined,
        'responseRules: equals and matches compare the value at when.json or when.xml',
      )
      .refine((w) => !(w.json && w.xml), 'responseRules: when reads json or xml, not both'),
    outcome: oneOf(RULE_OUTCOMES, 'responseRules: outcome'),
    reasonFrom: path('responseRules: reasonFrom').optional(),
    priceFrom: path('responseRules: priceFrom').optional(),
    refFrom: path('responseRules: refFrom').optional(),
  });
const ruleSchema = ruleSchemaOf(regexText);
/** The rules as stored and shown (buyer.output.ts). */
export const storedRulesSchema = z.array(
  ruleSchemaOf((name) => z.string({ error: `${name} must be a regular expression` })),
);

const stateCode = z.enum(US_STATE_CODES as unknown as [string, ...string[]], {
  error: 'filters.states: unknown state (two-letter US state code)',
});

const filtersSchema = z
  .object({
    states: z.array(stateCode).max(60).optional(),
    minAge: number('filters.minAge', 18, 120, true).optional(),
    maxAge: number('filters.maxAge', 18, 120, true).optional(),
    leadTypes: z
      .array(oneOf(['website', 'api'] as const, 'filters.leadTypes'))
      .max(2)
      .optional(),
    sources: z.array(z.string().trim().toLowerCase().min(1).max(100)).max(100).optional(),
  })
  .refine((f) => f.minAge === undefined || f.maxAge === undefined || f.minAge <= f.maxAge, {
    message: 'filters.minAge is above filters.maxAge',
  });

const clock = (name: string) =>
  z
    .string({ error: `${name} must be a time written HH:MM` })
    .regex(/^(?:[01]\d|2[0-3]):[0-5]\d$/, `${name} must be a time written HH:MM (00:00 to 23:59)`);

/** True when the runtime knows the IANA time zone. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return /\//.test(name) || name === 'UTC';
  } catch {
    return false;
  }
}

const scheduleSchema = z.object({
  timeZone: z
    .string({ error: 'schedule.timeZone is required' })
    .refine(isTimeZone, 'schedule.timeZone is not a time zone (e.g. America/Chicago)'),
  windows: z
    .array(
      z
        .object({
          days: z.array(oneOf(WEEK_DAYS, 'schedule.windows: days')).min(1, 'schedule.windows: days is empty'),
          start: clock('schedule.windows: start'),
          end: clock('schedule.windows: end'),
        })
        .refine((w) => w.start !== w.end, 'schedule.windows: end equals start'),
    )
    .min(1, 'schedule.windows: at least one window')
    .max(50),
});

const capSchema = z
  .object({
    period: oneOf(CAP_PERIODS, 'caps: period'),
    leads: number('caps: leads', 0, 10_000_000, true).optional(),
    amount: dollars('caps: amount', 100_000_000).optional(),
  })
  .refine((c) => c.leads !== undefined || c.amount !== undefined, 'caps: give leads, amount or both');

const baseFields = {
  name: z
    .string({ error: 'name is required' })
    .trim()
    .min(1, 'name is required')
    .max(200, 'name is too long'),
  status: oneOf(BUYER_STATUSES, 'status'),
  priority: number('priority', -1_000_000, 1_000_000, true),
  price: dollars('price', 100_000),
  delivery: deliverySchema,
  fields: z.array(fieldSchema).max(200, 'fields: at most 200'),
  responseRules: z
    .array(ruleSchema)
    .max(50, 'responseRules: at most 50')
    .superRefine((rules, ctx) => {
      // Every pattern of a buyer may run against one answer: their total size bounds the time it takes.
      const total = rulesProgramSize(rules);
      if (total > RULES_MAX_PROGRAM) ctx.addIssue({ code: 'custom', message: rulesTooComplex(total) });
    }),
  filters: filtersSchema.optional(),
  schedule: scheduleSchema.nullable().optional(),
  caps: z
    .array(capSchema)
    .max(5)
    .refine((caps) => new Set(caps.map((c) => c.period)).size === caps.length, 'caps: one cap per period')
    .optional(),
  returnWindowDays: number('returnWindowDays', 0, 365, true).optional(),
  maxConsecutiveErrors: number('maxConsecutiveErrors', 1, 1000, true).optional(),
};

/** Paths that must be XML element names when the body is XML. */
const XML_NAME = /^[A-Za-z_][\w.-]*$/;
function checkFieldPaths(
  value: { delivery?: z.infer<typeof deliverySchema>; fields?: z.infer<typeof fieldSchema>[] },
  ctx: z.RefinementCtx,
) {
  if (value.delivery?.kind !== 'http' || value.delivery.encoding !== 'xml') return;
  for (const [i, field] of (value.fields ?? []).entries()) {
    if (!field.to.split('.').every((part) => XML_NAME.test(part))) {
      ctx.addIssue({
        code: 'custom',
        path: ['fields', i, 'to'],
        message: `fields: '${field.to}' is not a path of XML element names`,
      });
    }
  }
}

export const buyerCreateSchema = z
  .object({
    ...baseFields,
    status: baseFields.status.default('active'),
    priority: baseFields.priority.default(100),
  })
  .superRefine(checkFieldPaths);
export type BuyerCreateInput = z.infer<typeof buyerCreateSchema>;

const buyerId = z.uuid({ error: 'id must be a UUID' });
export const buyerIdSchema = z.object({ id: buyerId });

/** PATCH: any of the fields; a secret header sent back as •••• keeps its stored value. */
export const buyerUpdateSchema = z
  .object({
    id: buyerId,
    name: baseFields.name.optional(),
    status: baseFields.status.optional(),
    priority: baseFields.priority.optional(),
    price: baseFields.price.optional(),
    delivery: deliverySchema.optional(),
    fields: baseFields.fields.optional(),
    responseRules: baseFields.responseRules.optional(),
    filters: baseFields.filters.nullable(),
    schedule: baseFields.schedule,
    caps: baseFields.caps.nullable(),
    returnWindowDays: baseFields.returnWindowDays,
    maxConsecutiveErrors: baseFields.maxConsecutiveErrors,
  })
  .superRefine(checkFieldPaths);
export type BuyerUpdateInput = z.infer<typeof buyerUpdateSchema>;

export const buyerAttemptsQuerySchema = z.object({
  id: buyerId,
  limit: z.coerce.number().int().min(1).max(500).optional(),
  test: z.enum(['true', 'false']).optional(),
});

export const buyerPreviewSchema = z.object({
  id: buyerId,
  leadId: z.uuid({ error: 'leadId must be a UUID' }),
});

export const leadSaleQuerySchema = z.object({ id: z.uuid({ error: 'id must be a UUID' }) });

export const leadReturnSchema = z.object({
  id: z.uuid({ error: 'id must be a UUID' }),
  reason: z
    .string({ error: 'reason is required' })
    .trim()
    .min(1, 'reason is required')
    .max(200, 'reason is too long'),
  note: z.string().trim().max(2000, 'note is too long').optional(),
});

/** Settling a post whose outcome is unknown: whether the buyer took the lead (ADR 069). */
export const leadSettleSchema = z.object({
  id: z.uuid({ error: 'id must be a UUID' }),
  buyerId: z.uuid({ error: 'buyerId must be a UUID' }),
  taken: z.boolean({ error: 'taken must be true (the buyer took it) or false (it did not)' }),
});
export type LeadSettleInput = z.infer<typeof leadSettleSchema>;

const day = (name: string) =>
  z
    .string({ error: `${name} must be a date YYYY-MM-DD` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${name} must be a date YYYY-MM-DD`);

export const revenueQuerySchema = z
  .object({
    from: day('from'),
    to: day('to'),
    groupBy: oneOf(REVENUE_GROUPS, 'groupBy').default('day'),
  })
  .refine((q) => q.from <= q.to, { message: 'from is after to', path: ['from'] });
