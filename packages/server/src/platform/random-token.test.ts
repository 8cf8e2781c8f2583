import { describe, expect, it } from 'vitest';
import { randomToken } from './random-token';

describe('randomToken', () => {
  it('gives base64url text of the bytes asked for, never the same twice, across pool refills', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2_000; i++) {
      const token = randomToken(32);
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(token, 'base64url')).toHaveLength(32);
      seen.add(token);
    }
    expect(seen.size).toBe(2_000);
    expect(randomToken(12)).toMatch(/^[A-Za-z0-9_-]{16}$/);
  });

  it('spreads its bytes evenly (no zeroed or repeated stretch handed out)', () => {
    const counts = new Array<number>(256).fill(0);
    for (let i = 0; i < 4_000; i++)
      for (const byte of Buffer.from(randomToken(32), 'base64url')) counts[byte]! += 1;
    // 128,000 bytes: 500 expected per value; a zeroed stretch would pile thousands onto 0.
    expect(Math.max(...counts)).toBeLessThan(650);
    expect(Math.min(...counts)).toBeGreaterThan(350);
  });

  it('refuses a size it cannot give', () => {
    expect(() => randomToken(0)).toThrow(RangeError);
    expect(() => randomToken(257)).toThrow(RangeError);
  });
});
