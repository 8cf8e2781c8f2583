import { describe, expect, it } from 'vitest';
import { openHoursBetween } from './buyer-health';

describe('openHoursBetween', () => {
  const weekdays = {
    timeZone: 'America/Chicago',
    windows: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'] as const, start: '09:00', end: '17:00' }],
  };

  it('counts every hour without a schedule', () => {
    expect(
      openHoursBetween(undefined, new Date('2026-11-20T00:00:00Z'), new Date('2026-11-20T06:30:00Z')),
    ).toBe(6.5);
  });

  it('counts only the open hours of a schedule, in its own time zone', () => {
    const schedule = { ...weekdays, windows: weekdays.windows.map((w) => ({ ...w, days: [...w.days] })) };
    // Friday 20 November 2026, 12:00 CST (18:00Z), to Monday 23 November 11:00 CST (17:00Z): 5 h Friday, 2 h Monday.
    expect(
      openHoursBetween(schedule, new Date('2026-11-20T18:00:00Z'), new Date('2026-11-23T17:00:00Z')),
    ).toBe(7);
    // A weekend: nothing open.
    expect(
      openHoursBetween(schedule, new Date('2026-11-21T12:00:00Z'), new Date('2026-11-22T23:00:00Z')),
    ).toBe(0);
  });
});
