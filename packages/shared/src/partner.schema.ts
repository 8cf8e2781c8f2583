import { z } from 'zod';
import { TRUSTEDFORM_CERT_PATTERN } from './consent-evidence.schema';
import { BENEFICIARY_VALUES, BIRTH_YEAR_MAX, BIRTH_YEAR_MIN } from './constants';
import type { FieldError } from './errors';
import { PHONE_PATTERN } from './lead.schema';
import { isUsStateCode, US_STATE_CODES } from './state-sites';

// POST /api/partner/leads: the API-lead fields of spec §3, validated here for the server, the OpenAPI
// document and partners alike. Server-only, so the classic zod API (its regexes become JSON-Schema
// patterns in the OpenAPI document).

export const PARTNER_MESSAGES = {
  required: (field: string) => `${field} is required`,
  tooLong: (field: string, max: number) => `${field} must be at most ${max} characters`,
  state: 'state must be a two-letter US state code, e.g. CA',
  phone: 'phone must be a 10-digit US number, e.g. (555) 123-4567 or +1 555 123 4567',
  birthMonth: 'birthMonth must be a month number from 1 to 12',
  birthDay: 'birthDay must be a day number from 1 to 31',
  birthYear: `birthYear must be a year from ${BIRTH_YEAR_MIN} to ${BIRTH_YEAR_MAX}`,
  birthDate: 'birthDay is not a day of that month',
  beneficiary: `beneficiary must be one of: ${BENEFICIARY_VALUES.join(', ')}`,
  trustedFormUrl: 'trustedFormUrl must be a TrustedForm certificate URL (https://cert.trustedform.com/<id>)',
  unknownField: 'is not a field of an API lead',
} as const;

const text = (field: string, max: number) =>
  z
    .string({ error: PARTNER_MESSAGES.required(field) })
    .trim()
    .min(1, PARTNER_MESSAGES.required(field))
    .max(max, PARTNER_MESSAGES.tooLong(field, max));

/** A number, or its decimal string ("7" or "07"), within [min, max]. */
const datePart = (min: number, max: number, pattern: RegExp, message: string) =>
  z
    .union([z.int().min(min).max(max), z.string().regex(pattern)], { error: message })
    .transform((v) => Number(v));

export const partnerLeadSchema = z
  .strictObject({
    firstName: text('firstName', 100),
    lastName: text('lastName', 100),
    streetAddress: text('streetAddress', 200),
    city: text('city', 100),
    state: z
      .string({ error: PARTNER_MESSAGES.state })
      .regex(/^[A-Za-z]{2}$/, PARTNER_MESSAGES.state)
      .transform((v) => v.toUpperCase())
      .refine(isUsStateCode, PARTNER_MESSAGES.state)
      .meta({ description: `Two-letter code of one of the 50 states (no DC): ${US_STATE_CODES.join(', ')}` }),
    phone: z
      .string({ error: PARTNER_MESSAGES.phone })
      .trim()
      .regex(PHONE_PATTERN, PARTNER_MESSAGES.phone)
      .meta({ description: 'US number: optional +1, 10 digits, separators - . space ( ) allowed' }),
    birthMonth: datePart(1, 12, /^(0?[1-9]|1[0-2])$/, PARTNER_MESSAGES.birthMonth),
    birthDay: datePart(1, 31, /^(0?[1-9]|[12]\d|3[01])$/, PARTNER_MESSAGES.birthDay),
    birthYear: datePart(BIRTH_YEAR_MIN, BIRTH_YEAR_MAX, /^(19[4-8]\d|199[0-4])$/, PARTNER_MESSAGES.birthYear),
    beneficiary: z.enum(BENEFICIARY_VALUES, { error: PARTNER_MESSAGES.beneficiary }).optional(),
    trustedFormUrl: z
      .string({ error: PARTNER_MESSAGES.trustedFormUrl })
      .regex(TRUSTEDFORM_CERT_PATTERN, PARTNER_MESSAGES.trustedFormUrl)
      .optional(),
  })
  .superRefine((lead, ctx) => {
    // Day 1–31 passed; now the day must exist in that month of that year (no 31 April, 29 Feb only in leap years).
    const date = new Date(Date.UTC(lead.birthYear, lead.birthMonth - 1, lead.birthDay));
    if (date.getUTCMonth() !== lead.birthMonth - 1) {
      ctx.addIssue({ code: 'custom', path: ['birthDay'], message: PARTNER_MESSAGES.birthDate });
    }
  });

export type PartnerLeadInput = z.input<typeof partnerLeadSchema>;
export type PartnerLead = z.output<typeof partnerLeadSchema>;

/** Every invalid field once, unknown fields each named: the `errors` list of the problem answer. */
export function partnerFieldErrors(error: z.core.$ZodError): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  const add = (field: string, message: string) => {
    if (seen.has(field)) return;
    seen.add(field);
    out.push({ field, message });
  };
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add(key, `${key} ${PARTNER_MESSAGES.unknownField}`);
      continue;
    }
    add(issue.path.map(String).join('.') || '_', issue.message);
  }
  return out;
}

export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
export const IDEMPOTENCY_KEY_MESSAGE =
  'Idempotency-Key must be 1 to 255 visible ASCII characters (a UUID is a good choice)';
