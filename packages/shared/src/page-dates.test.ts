import { describe, expect, it } from 'vitest';
import { pageDates } from './page-dates';

describe('pageDates', () => {
  it('is the calendar day of the given time zone, spelled as the pages show it', () => {
    // 03:00 UTC on 1 January is still New Year's Eve in New York.
    const now = new Date('2026-01-01T03:00:00Z');
    expect(pageDates(now, 'America/New_York')).toEqual({ today: 'December 31, 2025', year: '2025' });
    expect(pageDates(now, 'UTC')).toEqual({ today: 'January 1, 2026', year: '2026' });
  });
});
