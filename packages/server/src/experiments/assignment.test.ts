import { describe, expect, it } from 'vitest';
import { armFor, bucketOf, contentHash } from './assignment';

// The arm assignment (issue 48, ADR 075): fixed vectors (computed independently with Python's hashlib:
// int.from_bytes(sha256(f"{seed}\0{day}\0{visitor}").digest()[:6], "big") / 2**48 * 100), stability, a
// seed change reshuffling, and the split over 100,000 visitors within 1 point of the weights.

const SEED = '00112233445566778899aabbccddeeff';
const OTHER_SEED = 'ffeeddccbbaa99887766554433221100';
const ARMS = [
  { key: 'control', weight: 50 },
  { key: 'b', weight: 30 },
  { key: 'c', weight: 20 },
];

describe('bucketOf / armFor', () => {
  it('matches the fixed vectors', () => {
    expect(bucketOf(SEED, '2026-12-07', '-4611686018427387904')).toBeCloseTo(14.57024549879975, 10);
    expect(bucketOf(SEED, '2026-12-07', '1234567890123456789')).toBeCloseTo(60.735609432971316, 10);
    expect(bucketOf(OTHER_SEED, '2026-12-07', '1234567890123456789')).toBeCloseTo(24.055344760916597, 10);
    expect(bucketOf(SEED, '2026-12-08', '1234567890123456789')).toBeCloseTo(92.76162300563016, 10);
    // 14.57 < 50 → control; 60.74 in [50, 80) → b; 92.76 in [80, 100) → c.
    expect(armFor(ARMS, SEED, '2026-12-07', '-4611686018427387904').key).toBe('control');
    expect(armFor(ARMS, SEED, '2026-12-07', '1234567890123456789').key).toBe('b');
    expect(armFor(ARMS, SEED, '2026-12-08', '1234567890123456789').key).toBe('c');
  });

  it('gives the same visitor and seed the same arm every time', () => {
    for (let i = 0; i < 1000; i++) {
      const id = String(i * 7_919_000_003);
      const first = armFor(ARMS, SEED, '2026-12-07', id).key;
      for (let k = 0; k < 3; k++) expect(armFor(ARMS, SEED, '2026-12-07', id).key).toBe(first);
    }
  });

  it('reshuffles when the seed changes', () => {
    const two = [
      { key: 'a', weight: 50 },
      { key: 'b', weight: 50 },
    ];
    let moved = 0;
    for (let i = 0; i < 10_000; i++) {
      const id = String(i);
      if (armFor(two, SEED, '2026-12-07', id).key !== armFor(two, OTHER_SEED, '2026-12-07', id).key)
        moved += 1;
    }
    // Independent assignments at 50/50 disagree half the time (sd 50 of 10,000).
    expect(moved / 10_000).toBeGreaterThan(0.47);
    expect(moved / 10_000).toBeLessThan(0.53);
  });

  it('splits 100,000 visitors within 1 point of the weights', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 100_000; i++) {
      // Visitor ids as the analytics make them: signed 64-bit integers as text.
      const id = (BigInt(i) * 0x9e3779b97f4a7c15n - 2n ** 63n).toString();
      const key = armFor(ARMS, SEED, '2026-12-07', id).key;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    for (const arm of ARMS) {
      expect(Math.abs(((counts.get(arm.key) ?? 0) / 100_000) * 100 - arm.weight)).toBeLessThan(1);
    }
  });
});

describe('contentHash', () => {
  it('depends on the content, not on the order its slots were sent in', () => {
    expect(contentHash({ headline: 'A', formFirst: false })).toBe(
      contentHash({ formFirst: false, headline: 'A' }),
    );
    expect(contentHash({ headline: 'A' })).not.toBe(contentHash({ headline: 'B' }));
    expect(contentHash({})).not.toBe(contentHash({ formFirst: true }));
  });
});
