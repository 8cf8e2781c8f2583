import { describe, expect, it } from 'vitest';
import {
  classifyLeadErrors,
  createLeadSubmissionSchema,
  firstErrorPerField,
  PHONE_PATTERN,
} from './lead.schema';

const schema = createLeadSubmissionSchema('help@example.org');
const valid = {
  firstName: 'Jane',
  lastName: 'Doe',
  streetAddress: '1 Main St',
  zipCode: '90210',
  email: 'jane@example.com',
  phone: '(555) 123-4567',
  birthMonth: '5',
  birthDay: '17',
  birthYear: '1970',
  consentGiven: 'true',
};

function errorsFor(overrides: Record<string, unknown>) {
  const result = schema.safeParse({ ...valid, ...overrides });
  if (result.success) return {};
  return Object.fromEntries(firstErrorPerField(result.error).map((e) => [e.field, e.message]));
}

describe('lead submission schema (spec §5)', () => {
  it('accepts a valid lead and normalises consent to a boolean', () => {
    const parsed = schema.parse({ ...valid, firstName: '  Jane ' });
    expect(parsed.consentGiven).toBe(true);
    expect(parsed.firstName).toBe('Jane');
    expect(schema.parse({ ...valid, consentGiven: true }).consentGiven).toBe(true);
  });

  it.each([
    ['firstName', 'First name is required'],
    ['lastName', 'Last name is required'],
    ['streetAddress', 'Street address is required'],
    ['email', 'Email address is required'],
    ['phone', 'Phone number is required'],
    ['birthMonth', 'Birth month is required'],
    ['birthDay', 'Birth day is required'],
    ['birthYear', 'Birth year is required'],
  ])('requires %s: "%s"', (field, message) => {
    expect(errorsFor({ [field]: '' })[field]).toBe(message);
    expect(errorsFor({ [field]: '   ' })[field]).toBe(message);
    expect(errorsFor({ [field]: undefined })[field]).toBe(message);
  });

  it('names the expected type when a field comes as a number (issue 49: spec §3 sends strings)', () => {
    const errors = errorsFor({ birthMonth: 3, birthDay: 14, birthYear: 1961 });
    expect(errors.birthMonth).toBe('Birth month must be a string');
    expect(errors.birthDay).toBe('Birth day must be a string');
    expect(errors.birthYear).toBe('Birth year must be a string');
    expect(errorsFor({ phone: 3125550199 }).phone).toBe('Phone number must be a string');
    expect(errorsFor({ firstName: 7 }).firstName).toBe('First name must be a string');
    expect(errorsFor({ birthMonth: null }).birthMonth).toBe('Birth month is required');
  });

  it('checks the ZIP length first, then its format', () => {
    expect(errorsFor({ zipCode: '' }).zipCode).toBe('ZIP code must be at least 5 digits');
    expect(errorsFor({ zipCode: '1234' }).zipCode).toBe('ZIP code must be at least 5 digits');
    for (const zip of ['123456', 'abcde', '12345-678', '12345 6789', '1234-56789']) {
      expect(errorsFor({ zipCode: zip }).zipCode).toBe('ZIP code must be in format 12345 or 12345-6789');
    }
    expect(errorsFor({ zipCode: '12345-6789' }).zipCode).toBeUndefined();
  });

  it('validates the e-mail address with the support address as the example', () => {
    for (const email of ['nope', 'a@b', 'a b@c.com', '@example.com', 'a@.com']) {
      expect(errorsFor({ email }).email).toBe('Please enter a valid email address (e.g., help@example.org)');
    }
    expect(errorsFor({ email: 'first.last+tag@sub.example.co.uk' }).email).toBeUndefined();
  });

  it('accepts US phone numbers with optional +1/1 and separators, and nothing else', () => {
    for (const phone of [
      '5551234567',
      '555-123-4567',
      '555.123.4567',
      '555 123 4567',
      '(555) 123-4567',
      '(555)123-4567',
      '+1 555 123 4567',
      '1-555-123-4567',
      '+15551234567',
    ]) {
      expect(PHONE_PATTERN.test(phone), phone).toBe(true);
    }
    for (const phone of [
      '555123456',
      '55512345678',
      '+2 555 123 4567',
      'phone',
      '555-1234',
      '(555 123-4567',
    ]) {
      expect(errorsFor({ phone }).phone, phone).toBe(
        'Please enter a valid phone number (e.g., (555) 123-4567)',
      );
    }
  });

  it('accepts birth years 1940–1994 only, as an age restriction', () => {
    expect(errorsFor({ birthYear: '1940' }).birthYear).toBeUndefined();
    expect(errorsFor({ birthYear: '1994' }).birthYear).toBeUndefined();
    for (const birthYear of ['1939', '1995', '2010', 'abcd']) {
      expect(errorsFor({ birthYear }).birthYear).toBe(
        'Sorry, we only serve individuals born between 1940 and 1994',
      );
    }
    const result = schema.safeParse({ ...valid, birthYear: '1999' });
    expect(result.success).toBe(false);
    if (!result.success) expect(classifyLeadErrors(firstErrorPerField(result.error))).toBe('age_restriction');
  });

  it('checks month 1–12 and day 1–31 (not against the month)', () => {
    expect(errorsFor({ birthMonth: '13' }).birthMonth).toBe('Birth month must be between 1 and 12');
    expect(errorsFor({ birthMonth: '0' }).birthMonth).toBe('Birth month must be between 1 and 12');
    expect(errorsFor({ birthDay: '32' }).birthDay).toBe('Birth day must be between 1 and 31');
    expect(errorsFor({ birthMonth: '2', birthDay: '31' })).toEqual({});
  });

  it('requires consent', () => {
    for (const consentGiven of ['false', false, undefined, 'yes']) {
      expect(errorsFor({ consentGiven }).consentGiven).toBe('You must consent to continue');
    }
  });

  it('classifies other problems as a validation error', () => {
    const result = schema.safeParse({ ...valid, firstName: '' });
    expect(result.success).toBe(false);
    if (!result.success)
      expect(classifyLeadErrors(firstErrorPerField(result.error))).toBe('validation_error');
  });
});
