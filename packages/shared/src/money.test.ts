import { describe, expect, it } from 'vitest';
import { centsOf, dollarsOf, parseCents } from './money';

describe('money in whole cents', () => {
  it('reads amounts as whole cents without floating point', () => {
    expect(parseCents('0.29')).toBe(29);
    expect(parseCents('$1,234.5')).toBe(123450);
    expect(parseCents(' $ 8.50 ')).toBe(850);
    expect(parseCents('.5')).toBe(50);
    expect(parseCents('12.345')).toBe(1235);
    expect(parseCents('0.1')).toBe(10);
    for (const bad of ['', '--', '.', '1.2.3', '-5', '12,34', 'abc', '1e3']) {
      expect(parseCents(bad), bad).toBeNull();
    }
  });

  it('turns dollars into cents and back at the edges', () => {
    expect(centsOf(8.5)).toBe(850);
    expect(centsOf(0.29)).toBe(29); // 0.29 * 100 is 28.999999999999996 in floating point
    expect(dollarsOf(850)).toBe(8.5);
    // Ten sales of 0.10 add up to exactly one dollar in cents, not 0.9999999999999999.
    expect(dollarsOf(Array.from({ length: 10 }, () => centsOf(0.1)).reduce((a, b) => a + b, 0))).toBe(1);
  });
});
