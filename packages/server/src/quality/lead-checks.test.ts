import { PHONE_PATTERN } from '@uf/shared/lead.schema';
import { REASON_CODES } from '@uf/shared/quality';
import { stateFromZip } from '@uf/shared/zip-state';
import { describe, expect, it } from 'vitest';
import { isKnownZip } from './checks/zip';
import {
  checkLeadFields,
  FIELD_REASON_CODES,
  isEmailAllowed,
  isPhoneAllowed,
  type LeadFields,
} from './lead-checks';
import { BAD_LEADS, confusionTable, GOOD_LEADS } from './lead-corpus';

const NO_ALLOW = { emailDomains: [], phones: [] };

const clean: LeadFields = {
  firstName: 'Linda',
  lastName: 'Park',
  email: 'linda.park@gmail.com',
  phone: '(212) 736-4392',
  zipCode: '10001',
  birthMonth: '02',
  birthDay: '29',
  birthYear: '1960',
};

const label = (lead: LeadFields) =>
  `${lead.firstName} ${lead.lastName} <${lead.email}> ${lead.phone} ${lead.zipCode}`;

describe('the labelled corpus (issue 33)', () => {
  it('has at least 200 leads: 120 good, 80 bad, several for every field code', () => {
    expect(GOOD_LEADS.length).toBeGreaterThanOrEqual(120);
    expect(BAD_LEADS.length).toBeGreaterThanOrEqual(80);
    for (const code of FIELD_REASON_CODES) {
      expect(BAD_LEADS.filter((b) => b.expect === code).length, code).toBeGreaterThanOrEqual(5);
    }
  });

  it('no good lead gets any code', () => {
    const flagged = GOOD_LEADS.map((lead) => ({
      lead: label(lead),
      codes: checkLeadFields(lead, NO_ALLOW).codes,
    })).filter((r) => r.codes.length > 0);
    expect(flagged).toEqual([]);
  });

  it('every bad lead gets exactly its expected code', () => {
    const wrong = BAD_LEADS.map(({ lead, expect: expected }) => ({
      lead: label(lead),
      expected,
      codes: checkLeadFields(lead, NO_ALLOW).codes,
    })).filter((r) => r.codes.length !== 1 || r.codes[0] !== r.expected);
    expect(wrong).toEqual([]);
  });

  it('the confusion table is diagonal: good leads in NONE, each bad lead in its own column only', () => {
    const table = confusionTable();
    for (const row of table.labels) {
      for (const column of table.columns) {
        const expected = (row === 'GOOD' ? 'NONE' : row) === column ? table.totals[row] : 0;
        expect(table.counts[row][column], `${row} → ${column}`).toBe(expected);
      }
    }
    expect(table.totals.GOOD).toBe(GOOD_LEADS.length);
    expect(table.markdown.split('\n')).toHaveLength(table.labels.length + 2);
  });

  it('good leads cover the 50 states and DC with real ZIPs, leap days and the 1940–1994 range', () => {
    const zips = GOOD_LEADS.map((l) => l.zipCode?.slice(0, 5)).filter((z): z is string => !!z);
    for (const zip of zips) expect(isKnownZip(zip), zip).toBe(true);
    const states = new Set(zips.map((z) => stateFromZip(z) ?? (z.startsWith('200') ? 'DC' : 'other')));
    expect(states.size).toBe(51);
    expect(states.has('other')).toBe(false);
    expect(
      GOOD_LEADS.filter((l) => Number(l.birthMonth) === 2 && Number(l.birthDay) === 29).length,
    ).toBeGreaterThan(3);
    for (const lead of GOOD_LEADS) {
      expect(Number(lead.birthYear)).toBeGreaterThanOrEqual(1940);
      expect(Number(lead.birthYear)).toBeLessThanOrEqual(1994);
    }
  });

  it('good leads use every phone format the form accepts', () => {
    for (const lead of GOOD_LEADS) expect(PHONE_PATTERN.test(lead.phone), lead.phone).toBe(true);
    // The shape of each phone: digits as 9, the leading 1 kept apart.
    const shapes = new Set(
      GOOD_LEADS.map((l) => l.phone.replace(/^(\+?)1(?=\D?\(?\d{3})(?=.{10})/, '$1one').replace(/\d/g, '9')),
    );
    for (const shape of [
      '9999999999',
      '999-999-9999',
      '999.999.9999',
      '999 999 9999',
      '(999) 999-9999',
      '(999)999-9999',
      '(999) 999 9999',
      '(999).999.9999',
      '999.999-9999',
      '999-9999999',
      '999999-9999',
      '(999)9999999',
      'one9999999999',
      'one-999-999-9999',
      'one 999 999 9999',
      'one.999.999.9999',
      'one (999) 999-9999',
      'one(999)999-9999',
      'one-(999) 999-9999',
      '+one9999999999',
      '+one 999 999 9999',
      '+one-999-999-9999',
      '+one.999.999.9999',
      '+one (999) 999-9999',
      '+one(999)999-9999',
      '+one-(999) 999-9999',
      '+one 999-999-9999',
    ]) {
      expect(shapes.has(shape), shape).toBe(true);
    }
  });
});

describe('checkLeadFields', () => {
  it('gives a clean lead no code, its E.164 phone and its mailbox key', () => {
    expect(checkLeadFields(clean, NO_ALLOW)).toEqual({
      codes: [],
      phoneE164: '+12127364392',
      emailKey: 'lindapark@gmail.com',
      emailSuggestion: null,
    });
  });

  it('lists every field’s codes at once, in REASON_CODES order', () => {
    const lead = {
      firstName: 'Mickey',
      lastName: 'Mouse',
      email: 'mm@gmial.com',
      phone: '212-911-1234',
      zipCode: '00000',
      birthMonth: 2,
      birthDay: 30,
      birthYear: 1960,
    };
    const result = checkLeadFields(lead, NO_ALLOW);
    expect(result.codes).toEqual(['PHONE_N11', 'EMAIL_TYPO', 'ZIP_UNKNOWN', 'NAME_TEST', 'DOB_INVALID']);
    expect([...result.codes].sort((a, b) => REASON_CODES.indexOf(a) - REASON_CODES.indexOf(b))).toEqual(
      result.codes,
    );
    expect(result.emailSuggestion).toBe('mm@gmail.com');
  });

  it('catches the three leads of the issue', () => {
    const asdf = {
      ...clean,
      firstName: 'Asdf',
      lastName: 'Asdf',
      phone: '(212) 555-0123',
      email: 'bot@mailinator.com',
      birthMonth: 2,
      birthDay: 30,
    };
    expect(checkLeadFields(asdf, NO_ALLOW).codes).toEqual([
      'PHONE_FICTIONAL',
      'EMAIL_DISPOSABLE',
      'NAME_TEST',
      'DOB_INVALID',
    ]);
    const test = {
      ...clean,
      firstName: 'Test',
      lastName: 'Test',
      phone: '800-243-6617',
      email: 'test@example.com',
      birthMonth: 2,
      birthDay: 30,
    };
    expect(checkLeadFields(test, NO_ALLOW).codes).toEqual([
      'PHONE_NOT_PERSONAL',
      'EMAIL_RESERVED',
      'NAME_TEST',
      'DOB_INVALID',
    ]);
  });

  it('gives no code for an absent e-mail or ZIP, and null keys for what does not parse', () => {
    const result = checkLeadFields({ ...clean, email: null, zipCode: undefined, phone: 'none' }, NO_ALLOW);
    expect(result).toEqual({
      codes: ['PHONE_INVALID'],
      phoneE164: null,
      emailKey: null,
      emailSuggestion: null,
    });
    expect(checkLeadFields({ ...clean, email: 'not an address' }, NO_ALLOW).emailKey).toBeNull();
  });

  it('allow-listed e-mail domains get no EMAIL_* code, whatever the check said', () => {
    const allow = { emailDomains: ['Example.com', 'gmial.com', 'mailinator.com'], phones: [] };
    for (const email of ['qa@example.com', 'qa@sub.example.com', 'qa@gmial.com', 'qa@mailinator.com']) {
      expect(checkLeadFields({ ...clean, email }, allow), email).toMatchObject({
        codes: [],
        emailSuggestion: null,
      });
    }
    expect(checkLeadFields({ ...clean, email: 'qa@example.net' }, allow).codes).toEqual(['EMAIL_RESERVED']);
  });

  it('allow-listed phones get no PHONE_* code, compared in E.164 however either is written', () => {
    const allow = { emailDomains: [], phones: ['212.555.0199', '+1 (800) 243-6617'] };
    for (const phone of ['(212) 555-0199', '+12125550199', '1-800-243-6617']) {
      expect(checkLeadFields({ ...clean, phone }, allow).codes, phone).toEqual([]);
    }
    expect(checkLeadFields({ ...clean, phone: '(212) 555-0198' }, allow).codes).toEqual(['PHONE_FICTIONAL']);
    // The allow list changes what the phone is allowed to be, never anything else about the lead.
    expect(checkLeadFields({ ...clean, phone: '212-555-0199', zipCode: '00000' }, allow).codes).toEqual([
      'ZIP_UNKNOWN',
    ]);
  });

  it('answers allow-list questions for the duplicate look-ups with the same rules', () => {
    const allow = { emailDomains: ['@Acme.com'], phones: ['(212) 555-0199'] };
    expect(isEmailAllowed('qa+1@ACME.com', allow)).toBe(true);
    expect(isEmailAllowed('qa@lab.acme.com', allow)).toBe(true);
    expect(isEmailAllowed('qa@acme.co', allow)).toBe(false);
    expect(isEmailAllowed(null, allow)).toBe(false);
    expect(isPhoneAllowed('+12125550199', allow)).toBe(true);
    expect(isPhoneAllowed('+12125550198', allow)).toBe(false);
    expect(isPhoneAllowed(null, allow)).toBe(false);
  });

  it('handles 10,000 leads in a loop (a smoke check of the submit-path cost; no timing is asserted)', () => {
    const corpus = [...GOOD_LEADS, ...BAD_LEADS.map((b) => b.lead)];
    const allow = { emailDomains: ['acme.com'], phones: ['+12125550199'] };
    let flagged = 0;
    for (let i = 0; i < 10_000; i++) {
      if (checkLeadFields(corpus[i % corpus.length]!, allow).codes.length > 0) flagged++;
    }
    expect(flagged).toBeGreaterThan(0);
    expect(flagged).toBeLessThan(10_000);
  });
});

describe("the README's first five minutes (issue 49)", () => {
  it('fills the form with a lead every field check accepts', async () => {
    const { readFile } = await import('node:fs/promises');
    const readme = await readFile(new URL('../../../../README.md', import.meta.url), 'utf8');
    const five = readme.slice(readme.indexOf('## Your first five minutes'));
    const step = five.slice(five.indexOf('\n2. '), five.indexOf('\n3. '));
    // The values step 2 gives, in backticks, in the form's order (its phone was `(555) 123-4567`: invalid).
    const [firstName, lastName, streetAddress, zipCode, email, phone] = [...step.matchAll(/`([^`]+)`/g)].map(
      (m) => m[1] ?? '',
    );
    expect(streetAddress).toMatch(/^\d+ /);
    expect(step).toMatch(/born\s+June 14, 1961/);
    const lead: LeadFields = {
      firstName: firstName ?? '',
      lastName: lastName ?? '',
      email: email ?? '',
      phone: phone ?? '',
      zipCode: zipCode ?? '',
      birthMonth: '6',
      birthDay: '14',
      birthYear: '1961',
    };
    expect(PHONE_PATTERN.test(lead.phone)).toBe(true);
    expect(checkLeadFields(lead, NO_ALLOW).codes).toEqual([]);
  });
});
