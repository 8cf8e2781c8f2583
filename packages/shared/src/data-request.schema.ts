import * as z from 'zod/mini';
import { EMAIL_PATTERN, PHONE_PATTERN } from './lead.schema';

// Data subject requests (admin): find, export or delete everything held for an e-mail or phone.

export const DATA_REQUEST_MESSAGES = {
  identifierRequired: 'Enter an e-mail address or a phone number',
  emailInvalid: 'Enter a valid e-mail address',
  phoneInvalid: 'Enter a valid US phone number (10 digits)',
} as const;

const optionalText = (pattern: RegExp, message: string) =>
  z.optional(
    z.string({ error: message }).check(
      z.trim(),
      z.maxLength(254, message),
      z.refine((v) => v === '' || pattern.test(v), message),
    ),
  );

export const dataRequestSchema = z
  .object({
    email: optionalText(EMAIL_PATTERN, DATA_REQUEST_MESSAGES.emailInvalid),
    phone: optionalText(PHONE_PATTERN, DATA_REQUEST_MESSAGES.phoneInvalid),
  })
  .check(
    z.refine((v) => Boolean(v.email || v.phone), {
      message: DATA_REQUEST_MESSAGES.identifierRequired,
      path: ['email'],
    }),
  );

export type DataRequestInput = z.infer<typeof dataRequestSchema>;

/** The last 10 digits of a US phone number, the form every phone is matched in. */
export function phoneDigits(phone: string): string {
  return phone.replace(/\D/g, '').slice(-10);
}

/**
 * A US phone number as people read it, "(555) 123-4567", whatever way it was typed; a value that is
 * not ten digits (after an optional leading 1) is shown as stored.
 */
export function formatPhoneForReading(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  const ten = digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
  if (ten.length !== 10) return phone;
  return `(${ten.slice(0, 3)}) ${ten.slice(3, 6)}-${ten.slice(6)}`;
}

/** E-mail addresses are matched case-insensitively. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
