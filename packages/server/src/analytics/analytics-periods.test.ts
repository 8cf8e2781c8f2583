import { describe, expect, it } from 'vitest';
import { comparisonPeriods, splitRange } from './analytics-periods';

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

describe('comparisonPeriods', () => {
  it('compares the last 30 days with the 30 before when no dates are set', () => {
    expect(comparisonPeriods({}, '2026-11-24')).toEqual({
      current: { from: '2026-10-26', to: '2026-11-24' },
      previous: { from: '2026-09-26', to: '2026-10-25' },
    });
  });

  it('uses the filter dates and a previous period of the same length', () => {
    expect(comparisonPeriods({ from: '2026-11-01', to: '2026-11-07' }, '2026-11-24')).toEqual({
      current: { from: '2026-11-01', to: '2026-11-07' },
      previous: { from: '2026-10-25', to: '2026-10-31' },
    });
    expect(comparisonPeriods({ from: '2026-11-20' }, '2026-11-24').previous).toEqual({
      from: '2026-11-15',
      to: '2026-11-19',
    });
    expect(comparisonPeriods({ to: '2026-03-31' }, '2026-11-24').current).toEqual({
      from: '2026-03-02',
      to: '2026-03-31',
    });
  });
});
