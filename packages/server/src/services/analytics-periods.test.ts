import { describe, expect, it } from 'vitest';
import { splitRange } from './analytics-periods';

describe('splitRange', () => {
  it('reads everything from the monthly tables when there are no dates', () => {
    expect(splitRange({})).toEqual({ months: {}, days: [] });
  });

  it('uses whole months and the loose days at both ends', () => {
    expect(splitRange({ from: '2026-01-15', to: '2026-04-10' })).toEqual({
      months: { from: '2026-02-01', to: '2026-03-01' },
      days: [
        { from: '2026-01-15', to: '2026-01-31' },
        { from: '2026-04-01', to: '2026-04-10' },
      ],
    });
  });

  it('needs no loose days when the range starts and ends on month boundaries', () => {
    expect(splitRange({ from: '2026-02-01', to: '2026-02-28' })).toEqual({
      months: { from: '2026-02-01', to: '2026-02-01' },
      days: [],
    });
    expect(splitRange({ from: '2024-02-01', to: '2024-02-29' }).days).toEqual([]);
    expect(splitRange({ from: '2026-12-01', to: '2026-12-31' }).months).toEqual({
      from: '2026-12-01',
      to: '2026-12-01',
    });
  });

  it('reads a range inside one month from the daily tables only', () => {
    expect(splitRange({ from: '2026-03-02', to: '2026-03-30' })).toEqual({
      months: null,
      days: [{ from: '2026-03-02', to: '2026-03-30' }],
    });
    expect(splitRange({ from: '2026-02-28', to: '2026-03-01' })).toEqual({
      months: null,
      days: [{ from: '2026-02-28', to: '2026-03-01' }],
    });
  });

  it('leaves an open side open', () => {
    expect(splitRange({ from: '2026-03-02' })).toEqual({
      months: { from: '2026-04-01' },
      days: [{ from: '2026-03-02', to: '2026-03-31' }],
    });
    expect(splitRange({ to: '2026-03-30' })).toEqual({
      months: { to: '2026-02-01' },
      days: [{ from: '2026-03-01', to: '2026-03-30' }],
    });
    expect(splitRange({ to: '2026-03-31' })).toEqual({ months: { to: '2026-03-01' }, days: [] });
  });
});
