import { describe, expect, it } from 'vitest';
import { checkZip, isKnownZip, KNOWN_ZIP_COUNT } from './zip';

describe('checkZip', () => {
  it('loads both tables', () => {
    expect(KNOWN_ZIP_COUNT).toBeGreaterThan(42_000);
  });

  it('knows current, territorial, military and unique ZIPs', () => {
    for (const zip of [
      '10001',
      '90210',
      '20500',
      '99950',
      '75036',
      '00601',
      '00801',
      '96910',
      '09001',
      '96201',
      '34001',
    ]) {
      expect(isKnownZip(zip), zip).toBe(true);
    }
  });

  it('accepts a ZIP+4 by its first five and gives nothing for an absent ZIP', () => {
    expect(checkZip('10001-2345')).toEqual([]);
    expect(checkZip(' 10001 ')).toEqual([]);
    expect(checkZip('')).toEqual([]);
    expect(checkZip(null)).toEqual([]);
    expect(checkZip(undefined)).toEqual([]);
  });

  it('flags ZIPs that do not exist, and text that is no ZIP', () => {
    for (const zip of ['00000', '99999', '11111', '00100', '00000-1234', '1234', 'ABCDE', '123456']) {
      expect(checkZip(zip), zip).toEqual(['ZIP_UNKNOWN']);
    }
  });
});
