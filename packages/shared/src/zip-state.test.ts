import { describe, expect, it } from 'vitest';
import zipData from './data/zip3-state.json' with { type: 'json' };
import { stateFromZip } from './zip-state';

describe('stateFromZip', () => {
  it('agrees with every check in the reference data', () => {
    for (const [zip, expected] of Object.entries(zipData.checks as Record<string, string>)) {
      expect(stateFromZip(zip) ?? 'unknown', zip).toBe(expected);
    }
  });

  it('applies five-digit exceptions before the prefix', () => {
    expect(stateFromZip('73960')).toBe('TX'); // Texhoma TX inside OK's 739
    expect(stateFromZip('73901')).toBe('OK');
    expect(stateFromZip('83414')).toBe('WY'); // Alta WY inside ID's 834
    expect(stateFromZip('06390')).toBe('NY'); // Fishers Island NY inside CT's 063
    expect(stateFromZip('20588')).toBe('MD'); // inside DC's 205
  });

  it('maps DC, territories and military mail to unknown (null)', () => {
    expect(stateFromZip('20001')).toBeNull(); // DC
    expect(stateFromZip('00601')).toBeNull(); // Puerto Rico
    expect(stateFromZip('96910')).toBeNull(); // Guam
    expect(stateFromZip('09001')).toBeNull(); // AE military
    expect(stateFromZip('96799')).toBeNull(); // American Samoa inside HI's 967
  });

  it('accepts ZIP+4 and rejects malformed input', () => {
    expect(stateFromZip('90210-1234')).toBe('CA');
    expect(stateFromZip(' 10001 ')).toBe('NY');
    expect(stateFromZip('9021')).toBeNull();
    expect(stateFromZip('abcde')).toBeNull();
    expect(stateFromZip('')).toBeNull();
  });

  it('maps every assigned prefix of the 50 states', () => {
    const states = new Set(
      Array.from({ length: 1000 }, (_, i) => stateFromZip(`${String(i).padStart(3, '0')}01`)).filter(Boolean),
    );
    expect(states.size).toBe(50);
    expect(states.has('DC' as never)).toBe(false);
  });
});
