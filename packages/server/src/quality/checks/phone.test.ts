import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { describe, expect, it } from 'vitest';
import { checkPhone, phoneToE164 } from './phone';

const codes = (phone: string) => checkPhone(phone).codes;

describe('checkPhone', () => {
  it('accepts ordinary US numbers in every format the form allows, with their E.164 key', () => {
    for (const phone of [
      '2127364392',
      '212-736-4392',
      '212.736.4392',
      '212 736 4392',
      '(212) 736-4392',
      '(212)736-4392',
      '(212).736.4392',
      '1-212-736-4392',
      '1 (212) 736-4392',
      '12127364392',
      '+1 212 736 4392',
      '+1-(212) 736-4392',
      '+12127364392',
    ]) {
      expect(checkPhone(phone), phone).toEqual({ e164: '+12127364392', codes: [] });
    }
  });

  it('accepts the US territories but not Canada or the Caribbean', () => {
    expect(codes('787-722-4410')).toEqual([]); // Puerto Rico
    expect(codes('671-472-3318')).toEqual([]); // Guam
    expect(codes('416-234-5678')).toEqual(['PHONE_INVALID']);
    expect(checkPhone('416-234-5678').e164).toBe('+14162345678');
    expect(codes('876-234-5678')).toEqual(['PHONE_INVALID']);
  });

  it('keeps geographic 5XX area codes (520 AZ, 530 CA, 531 NE, 534 WI)', () => {
    for (const phone of ['520-326-7719', '530-893-4412', '531-444-2381', '534-232-6654']) {
      expect(codes(phone), phone).toEqual([]);
    }
  });

  it('rejects what is not a valid number, and gives it no other code', () => {
    expect(checkPhone('call me')).toEqual({ e164: null, codes: ['PHONE_INVALID'] });
    expect(checkPhone('212-234-567')).toEqual({ e164: null, codes: ['PHONE_INVALID'] });
    expect(codes('456-234-5678')).toEqual(['PHONE_INVALID']);
    // Exchange starting with 1 is invalid, though 123-4567 is also a sequence.
    expect(codes('212-123-4567')).toEqual(['PHONE_INVALID']);
    expect(codes('+44 20 7946 0958')).toEqual(['PHONE_INVALID']);
  });

  it('flags toll-free, premium-rate and personal-number ranges', () => {
    for (const area of [
      '800',
      '833',
      '844',
      '855',
      '866',
      '877',
      '888',
      '900',
      '500',
      '521',
      '533',
      '544',
      '566',
      '577',
      '588',
    ]) {
      expect(codes(`${area}-243-6617`), area).toEqual(['PHONE_NOT_PERSONAL']);
    }
  });

  it('flags N11 exchanges 211…911', () => {
    for (const n of ['2', '3', '4', '5', '6', '7', '8', '9']) {
      expect(codes(`212-${n}11-2034`), `${n}11`).toEqual(['PHONE_N11']);
    }
    expect(codes('212-910-2034')).toEqual([]);
  });

  it('flags 555-0100…0199 and 555-1212 in any area code, and no other 555 number', () => {
    expect(codes('(212) 555-0123')).toEqual(['PHONE_FICTIONAL']);
    expect(codes('312-555-0100')).toEqual(['PHONE_FICTIONAL']);
    expect(codes('415-555-0199')).toEqual(['PHONE_FICTIONAL']);
    expect(codes('617-555-1212')).toEqual(['PHONE_FICTIONAL']);
    expect(codes('212-555-0200')).toEqual([]);
    expect(codes('212-555-0099')).toEqual([]);
    expect(codes('212-555-1213')).toEqual([]);
    expect(codes('212-555-2368')).toEqual([]);
  });

  it('flags seven equal or sequential subscriber digits', () => {
    for (const phone of [
      '212-222-2222',
      '415-777-7777',
      '312-234-5678',
      '404-456-7890',
      '713-765-4321',
      '617-876-5432',
    ]) {
      expect(codes(phone), phone).toEqual(['PHONE_PATTERN']);
    }
    expect(codes('212-234-5679')).toEqual([]);
    expect(codes('212-222-2223')).toEqual([]);
  });

  it('can give several codes to one valid number', () => {
    expect(codes('800-222-2222')).toEqual(['PHONE_NOT_PERSONAL', 'PHONE_PATTERN']);
  });

  it('normalises any NANP spelling to E.164 for the allow list and duplicates', () => {
    expect(phoneToE164('(212) 555-0123')).toBe('+12125550123');
    expect(phoneToE164('1.212.555.0123')).toBe('+12125550123');
    expect(phoneToE164('not a phone')).toBeNull();
    expect(phoneToE164('+44 20 7946 0958')).toBeNull();
  });
});

describe('checkPhone against the library', () => {
  it('calls invalid exactly the numbers the library calls invalid or places outside the US', () => {
    // checkPhone reads validity from the number's type (one pass over the metadata): it must agree with
    // the library's own isValid() over area codes, exchanges and lines of every kind.
    const us = new Set(['US', 'PR', 'VI', 'GU', 'MP', 'AS']);
    let seed = 7;
    const digit = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return Math.floor((seed / 2_147_483_648) * 10);
    };
    const seen = { valid: 0, invalid: 0 };
    for (let i = 0; i < 3_000; i++) {
      const number = Array.from({ length: 10 }, digit).join('');
      const parsed = parsePhoneNumberFromString(number, 'US');
      const libraryValid = Boolean(parsed?.isValid() && parsed.country && us.has(parsed.country));
      const invalid = checkPhone(number).codes.includes('PHONE_INVALID');
      expect(invalid, number).toBe(!libraryValid);
      seen[invalid ? 'invalid' : 'valid'] += 1;
    }
    // Both answers came up often, so the agreement says something.
    expect(Math.min(seen.valid, seen.invalid)).toBeGreaterThan(300);
  });
});
