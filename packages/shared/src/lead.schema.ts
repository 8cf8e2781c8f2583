import * as z from 'zod/mini';
import type { $ZodError } from 'zod/v4/core';
import { BENEFICIARY_VALUES, BIRTH_YEAR_MAX, BIRTH_YEAR_MIN } from './constants';
import { ERROR_CODES, type FieldError } from './errors';
import { LEAD_FIELD_MESSAGES as M } from './messages';

// One schema for the landing form (client) and for POST /api/submit-search (server) — spec §5.
// Written with zod/mini: the landing page ships it, and the mini API tree-shakes to a few KB (ADR 005).

export const ZIP_PATTERN = /^\d{5}(-\d{4})?$/;
/** Optional +1 or 1 prefix, 10 digits, separators dash, dot, space or parentheses. */
export const PHONE_PATTERN = /^(?:\+?1[\s.-]?)?(?:\(\d{3}\)|\d{3})[\s.-]?\d{3}[\s.-]?\d{4}$/;
// Deliberately pragmatic: something@domain.tld, no spaces. The server's unique index does the rest.
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;

const MAX_TEXT = 100;
const tooLong = (label: string, max: number) => `${label} must be at most ${max} characters`;

/**
 * Missing (or null) is "… is required"; any other non-string (a JSON number, say) names the type the field
 * wants, "… must be a string" (issue 49: `birthMonth: 3` was told it was missing). Spec §3: all strings.
 * Derived from the required message so that the landing bundle carries no second table of texts.
 */
const notAString = (requiredMessage: string) => (issue: { input?: unknown }) =>
  issue.input == null ? requiredMessage : requiredMessage.replace('is required', 'must be a string');

function requiredText(requiredMessage: string, label: string, max = MAX_TEXT) {
  return z
    .string({ error: notAString(requiredMessage) })
    .check(z.trim(), z.minLength(1, requiredMessage), z.maxLength(max, tooLong(label, max)));
}

/** Required trimmed string with a rule checked only once something was entered. */
function requiredMatching(
  requiredMessage: string,
  isValid: (v: string) => boolean,
  invalidMessage: string,
  max = 254,
) {
  return z.string({ error: notAString(requiredMessage) }).check(
    z.trim(),
    z.minLength(1, requiredMessage),
    z.maxLength(max, `Must be at most ${max} characters`),
    z.refine((v: string) => v === '' || isValid(v), invalidMessage),
  );
}

function integerIn(value: string, min: number, max: number): boolean {
  if (!/^\d{1,4}$/.test(value)) return false;
  const n = Number(value);
  return n >= min && n <= max;
}

/** 'true' / 'false' strings (the wire format) or booleans (the form), normalised to boolean. */
export const consentSchema = z
  .pipe(
    z.union([z.boolean(), z.enum(['true', 'false'])], { error: M.consentRequired }),
    z.transform((v: boolean | 'true' | 'false') => v === true || v === 'true'),
  )
  .check(z.refine((v) => v, M.consentRequired));

export function createLeadSubmissionSchema(exampleEmail: string) {
  return z.object({
    firstName: requiredText(M.firstNameRequired, 'First name'),
    lastName: requiredText(M.lastNameRequired, 'Last name'),
    streetAddress: requiredText(M.streetAddressRequired, 'Street address', 200),
    zipCode: z.string({ error: M.zipTooShort }).check(
      z.trim(),
      z.minLength(5, M.zipTooShort),
      z.refine((v) => ZIP_PATTERN.test(v), M.zipFormat),
    ),
    email: requiredMatching(M.emailRequired, (v) => EMAIL_PATTERN.test(v), M.emailInvalid(exampleEmail)),
    phone: requiredMatching(M.phoneRequired, (v) => PHONE_PATTERN.test(v), M.phoneInvalid),
    birthMonth: requiredMatching(M.birthMonthRequired, (v) => integerIn(v, 1, 12), M.birthMonthInvalid),
    birthDay: requiredMatching(M.birthDayRequired, (v) => integerIn(v, 1, 31), M.birthDayInvalid),
    birthYear: requiredMatching(
      M.birthYearRequired,
      (v) => integerIn(v, BIRTH_YEAR_MIN, BIRTH_YEAR_MAX),
      M.birthYearRange,
    ),
    consentGiven: consentSchema,
  });
}

export type LeadSubmissionSchema = ReturnType<typeof createLeadSubmissionSchema>;
export type LeadSubmissionInput = z.input<LeadSubmissionSchema>;
export type LeadSubmission = z.output<LeadSubmissionSchema>;

/** The landing form's values before validation (spec §5 defaults: empty strings, consent false). */
export type LeadFormValues = {
  firstName: string;
  lastName: string;
  streetAddress: string;
  zipCode: string;
  email: string;
  phone: string;
  birthMonth: string;
  birthDay: string;
  birthYear: string;
  consentGiven: boolean;
};

export const EMPTY_LEAD_FORM: LeadFormValues = {
  firstName: '',
  lastName: '',
  streetAddress: '',
  zipCode: '',
  email: '',
  phone: '',
  birthMonth: '',
  birthDay: '',
  birthYear: '',
  consentGiven: false,
};

export const beneficiarySchema = z.object({
  beneficiary: z.enum(BENEFICIARY_VALUES, {
    error: `Beneficiary must be one of: ${BENEFICIARY_VALUES.join(', ')}`,
  }),
});
export type BeneficiaryInput = z.infer<typeof beneficiarySchema>;

export const leadIdSchema = z.object({ id: z.uuid({ error: 'Lead id must be a UUID' }) });

export const leadBeneficiaryInputSchema = z.object({
  id: z.uuid({ error: 'Lead id must be a UUID' }),
  beneficiary: beneficiarySchema.shape.beneficiary,
});

/** First message per field, in schema order: what a form shows under each field. */
export function firstErrorPerField(error: $ZodError): FieldError[] {
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const issue of error.issues) {
    const field = issue.path.map(String).join('.') || '_';
    if (seen.has(field)) continue;
    seen.add(field);
    out.push({ field, message: issue.message });
  }
  return out;
}

/** Spec §8: a birth year outside 1940–1994 is its own error type (age_restriction). */
export function classifyLeadErrors(fieldErrors: FieldError[]) {
  const isAge = fieldErrors.some((e) => e.field === 'birthYear' && e.message === M.birthYearRange);
  return isAge ? ERROR_CODES.ageRestriction : ERROR_CODES.validation;
}
