import { describe, expect, it } from 'vitest';
import { dataRequestSchema, formatPhoneForReading, phoneDigits } from './data-request.schema';

describe('data request schema', () => {
  it('needs an e-mail or a phone, each valid when given', () => {
    expect(dataRequestSchema.safeParse({}).success).toBe(false);
    expect(dataRequestSchema.safeParse({ email: ' ', phone: '' }).success).toBe(false);
    expect(dataRequestSchema.safeParse({ email: 'nope' }).success).toBe(false);
    expect(dataRequestSchema.safeParse({ phone: '12' }).success).toBe(false);
    expect(dataRequestSchema.parse({ email: ' a@b.co ' })).toEqual({ email: 'a@b.co' });
    expect(dataRequestSchema.parse({ phone: '(555) 123-4567' })).toEqual({ phone: '(555) 123-4567' });
  });

  it('matches phones by their last 10 digits', () => {
    expect(phoneDigits('+1 (555) 123-4567')).toBe('5551234567');
    expect(phoneDigits('555.123.4567')).toBe('5551234567');
  });
});

describe('formatPhoneForReading', () => {
  it('shows ten digits as (555) 123-4567 and leaves anything else as stored', () => {
    expect(formatPhoneForReading('5551234567')).toBe('(555) 123-4567');
    expect(formatPhoneForReading('+1 555.123.4567')).toBe('(555) 123-4567');
    expect(formatPhoneForReading('(555) 123-4567')).toBe('(555) 123-4567');
    expect(formatPhoneForReading('12345')).toBe('12345');
  });
});
