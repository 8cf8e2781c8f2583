import { describe, expect, it } from 'vitest';
import {
  getStateSite,
  isUsStateCode,
  MULTI_STATE_SITE_URL,
  MULTIPLE_STATES_LABEL,
  STATE_SITES,
  US_STATE_CODES,
  US_STATE_NAMES,
} from './state-sites';

describe('state-sites', () => {
  it('has exactly the 50 states, sorted, unique, without DC', () => {
    expect(US_STATE_CODES).toHaveLength(50);
    expect(new Set(US_STATE_CODES).size).toBe(50);
    expect([...US_STATE_CODES].sort()).toEqual([...US_STATE_CODES]);
    expect(US_STATE_CODES as readonly string[]).not.toContain('DC');
    expect(isUsStateCode('DC')).toBe(false);
    expect(Object.keys(STATE_SITES)).toHaveLength(50);
    expect(Object.keys(US_STATE_NAMES)).toHaveLength(50);
    expect(Object.keys(STATE_SITES)).not.toContain('DC');
  });

  it('has an https URL that parses for every state', () => {
    for (const code of US_STATE_CODES) {
      const url = STATE_SITES[code];
      expect(url.startsWith('https://'), code).toBe(true);
      expect(() => new URL(url), code).not.toThrow();
      expect(new URL(url).protocol, code).toBe('https:');
      expect(US_STATE_NAMES[code].length, code).toBeGreaterThan(0);
    }
    expect(new URL(MULTI_STATE_SITE_URL).protocol).toBe('https:');
  });

  it('looks up states case-insensitively', () => {
    expect(getStateSite('ca')).toEqual({ state: 'CA', name: 'California', url: STATE_SITES.CA });
    expect(getStateSite('CA')).toEqual(getStateSite(' ca '));
  });

  it('falls back to Multiple States for unknown, missing and DC', () => {
    const fallback = { state: MULTIPLE_STATES_LABEL, name: MULTIPLE_STATES_LABEL, url: MULTI_STATE_SITE_URL };
    for (const input of ['unknown', undefined, null, '', 'DC', 'dc', 'PR', 'XX']) {
      expect(getStateSite(input)).toEqual(fallback);
    }
    expect(MULTIPLE_STATES_LABEL).toBe('Multiple States');
  });
});
