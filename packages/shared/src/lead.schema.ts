import { z } from 'zod';
import { BENEFICIARY_VALUES, BIRTH_YEAR_MAX, BIRTH_YEAR_MIN } from './constants';
import { ERROR_CODES, type FieldError } from './errors';
import { LEAD_FIELD_MESSAGES as M } from './messages';

// One schema for the landing form (client) and for POST /api/submit-search (server) — spec §5.

export const ZIP_PATTERN = /^\d{5}(-\d{4})?$/;
/** Optional +1 or 1 prefix, 10 digits, separators dash, dot, space or parentheses. */
export const PHONE_PATTERN = /^(?:\+?1[\s.-]?)?(?:\(\d{3}\)|\d{3})[\s.-]?\d{3}[\s.-]?\d{4}$/;
// Deliberately pragmatic: something@domain.tld, no spaces. The server's unique index does the rest.
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;

const MAX_TEXT = 100;
const tooLong = (label: string, max: number) => `${label} must be at most ${max} characters`;

function requiredText(requiredMessage: string, label: string, max = MAX_TEXT) {
  return z.string({ error: requiredMessage }).trim().min(1, requiredMessage).max(max, tooLong(label, max));
}

function integerIn(value: string, min: number, max: number): boolean {
  if (!/^\d{1,4}$/.test(value)) return false;
  const n = Number(value);
  return n >= min && n <= max;
}

/** 'true' / 'false' strings (the wire format) or booleans (the form), normalised to boolean. */
export const consentSchema = z
  .union([z.boolean(), z.enum(['true', 'false'])], { error: M.consentRequired })
  .transform((v) => v === true || v === 'true')
  .refine((v) => v, M.consentRequired);

export function createLeadSubmissionSchema(exampleEmail: string) {
  return z.object({
    firstName: requiredText(M.firstNameRequired, 'First name'),
    lastName: requiredText(M.lastNameRequired, 'Last name'),
    streetAddress: requiredText(M.streetAddressRequired, 'Street address', 200),
    zipCode: z
      .string({ error: M.zipTooShort })
      .trim()
      .min(5, M.zipTooShort)
      .refine((v) => ZIP_PATTERN.test(v), M.zipFormat),
    email: z
      .string({ error: M.emailRequired })
      .trim()
      .min(1, M.emailRequired)
      .max(254, tooLong('Email address', 254))
      .refine((v) => v === '' || EMAIL_PATTERN.test(v), M.emailInvalid(exampleEmail)),
    phone: z
      .string({ error: M.phoneRequired })
      .trim()
      .min(1, M.phoneRequired)
      .refine((v) => v === '' || PHONE_PATTERN.test(v), M.phoneInvalid),
    birthMonth: z
      .string({ error: M.birthMonthRequired })
      .trim()
      .min(1, M.birthMonthRequired)
      .refine((v) => v === '' || integerIn(v, 1, 12), M.birthMonthInvalid),
    birthDay: z
      .string({ error: M.birthDayRequired })
      .trim()
      .min(1, M.birthDayRequired)
      .refine((v) => v === '' || integerIn(v, 1, 31), M.birthDayInvalid),
    birthYear: z
      .string({ error: M.birthYearRequired })
      .trim()
      .min(1, M.birthYearRequired)
      .refine((v) => v === '' || integerIn(v, BIRTH_YEAR_MIN, BIRTH_YEAR_MAX), M.birthYearRange),
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

/** First message per field, in schema order: what a form shows under each field. */
export function firstErrorPerField(error: z.ZodError): FieldError[] {
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
