import { describe, expect, it } from 'vitest';
import { addDays, revenueRange, revenueSummary, revenueUsd } from './revenue-figures';

describe('the Revenue card’s figures', () => {
  it('counts business days back from today', () => {
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(revenueRange('2026-11-30')).toEqual({ from: '2026-11-01', to: '2026-11-30', groupBy: 'day' });
  });

  it('sums today, the last 7 and the last 30 days, net of returns, in USD', () => {
    const rows = [
      { key: '2026-10-31', net: 1000 },
      { key: '2026-11-01', net: 10 },
      { key: '2026-11-23', net: 20.1 },
      { key: '2026-11-24', net: 0.2 },
      { key: '2026-11-30', net: 8.5 },
    ];
    expect(revenueSummary(rows, '2026-11-30')).toEqual({ today: 8.5, last7: 8.7, last30: 38.8 });
    expect(revenueSummary([], '2026-11-30')).toEqual({ today: 0, last7: 0, last30: 0 });
    expect(revenueUsd(1234.5)).toBe('$1,234.50');
  });
});
