import { describe, expect, it } from 'vitest';
import { businessHoursBetween, dueReports, isBusinessTime, zonedInstant } from './email-schedule';

const NY = 'America/New_York';

describe('zonedInstant', () => {
  it('is the instant of a wall-clock hour in the zone, daylight saving included', () => {
    expect(zonedInstant('2026-11-25', 9, NY).toISOString()).toBe('2026-11-25T14:00:00.000Z'); // EST
    expect(zonedInstant('2026-07-01', 9, NY).toISOString()).toBe('2026-07-01T13:00:00.000Z'); // EDT
    expect(zonedInstant('2026-11-01', 0, NY).toISOString()).toBe('2026-11-01T04:00:00.000Z'); // day of the change
    expect(zonedInstant('2026-11-02', 0, NY).toISOString()).toBe('2026-11-02T05:00:00.000Z');
  });
});

describe('dueReports', () => {
  it('nothing before 09:00 in TIME_ZONE', () => {
    expect(dueReports(new Date('2026-11-25T13:59:59Z'), NY)).toEqual([]); // 08:59:59 EST
  });

  it("from 09:00 the daily summary of the day before, as that day's [midnight, midnight)", () => {
    const due = dueReports(new Date('2026-11-25T14:00:00Z'), NY); // Wednesday 09:00 EST
    expect(due).toHaveLength(1);
    expect(due[0]).toMatchObject({ rule: 'daily', periodKey: '2026-11-24', label: '2026-11-24' });
    expect(due[0]?.from.toISOString()).toBe('2026-11-24T05:00:00.000Z');
    expect(due[0]?.to.toISOString()).toBe('2026-11-25T05:00:00.000Z');
    // Later the same day: the same report (the sent-table keeps it to one).
    expect(dueReports(new Date('2026-11-26T03:00:00Z'), NY)[0]?.periodKey).toBe('2026-11-24');
  });

  it('on Mondays also the weekly summary of Monday to Sunday before', () => {
    const due = dueReports(new Date('2026-11-30T14:30:00Z'), NY); // Monday 09:30 EST
    expect(due.map((d) => `${d.rule}:${d.periodKey}`)).toEqual(['daily:2026-11-29', 'weekly:2026-11-23']);
    const weekly = due[1];
    expect(weekly?.label).toBe('2026-11-23 to 2026-11-29');
    expect(weekly?.from.toISOString()).toBe('2026-11-23T05:00:00.000Z');
    expect(weekly?.to.toISOString()).toBe('2026-11-30T05:00:00.000Z');
  });

  it('on the first of a month also the monthly summary of the month before, across its DST change', () => {
    // Sunday 2026-11-01, 09:00 EST (the clocks went back at 02:00): October, from its first midnight EDT.
    const due = dueReports(new Date('2026-11-01T14:00:00Z'), NY);
    expect(due.map((d) => `${d.rule}:${d.periodKey}`)).toEqual(['daily:2026-10-31', 'monthly:2026-10-01']);
    const monthly = due[1];
    expect(monthly?.label).toBe('2026-10-01 to 2026-10-31');
    expect(monthly?.from.toISOString()).toBe('2026-10-01T04:00:00.000Z');
    expect(monthly?.to.toISOString()).toBe('2026-11-01T04:00:00.000Z');
    // Monday 2027-03-01: weekly and monthly together; February has 28 days.
    const march = dueReports(new Date('2027-03-01T14:00:00Z'), NY);
    expect(march.map((d) => `${d.rule}:${d.periodKey}`)).toEqual([
      'daily:2027-02-28',
      'weekly:2027-02-22',
      'monthly:2027-02-01',
    ]);
    expect(march[2]?.label).toBe('2027-02-01 to 2027-02-28');
    // Any other day: no monthly one.
    expect(dueReports(new Date('2026-11-02T14:00:00Z'), NY).some((d) => d.rule === 'monthly')).toBe(false);
  });

  it('reads the day in TIME_ZONE, not in UTC', () => {
    // 2026-11-25 03:00 UTC is still the 24th, 22:00, in New York: after 09:00, so the 23rd is due.
    expect(dueReports(new Date('2026-11-25T03:00:00Z'), NY)[0]?.periodKey).toBe('2026-11-23');
    // 2026-11-24 23:00 UTC is 08:00 on the 25th in Tokyo: nothing yet.
    expect(dueReports(new Date('2026-11-24T23:00:00Z'), 'Asia/Tokyo')).toEqual([]);
  });
});

describe('business hours', () => {
  it('counts 09:00–17:00 Monday to Friday only', () => {
    // Friday 15:00 EST → Monday 10:00 EST: 2 h Friday + 1 h Monday.
    expect(businessHoursBetween(new Date('2026-11-27T20:00:00Z'), new Date('2026-11-30T15:00:00Z'), NY)).toBe(
      3,
    );
    // Overnight on a weekday: 16:00 → 10:00 next day = 1 + 1.
    expect(businessHoursBetween(new Date('2026-11-24T21:00:00Z'), new Date('2026-11-25T15:00:00Z'), NY)).toBe(
      2,
    );
    expect(businessHoursBetween(new Date('2026-11-25T15:00:00Z'), new Date('2026-11-24T15:00:00Z'), NY)).toBe(
      0,
    );
  });

  it('knows when business time is', () => {
    expect(isBusinessTime(new Date('2026-11-25T14:00:00Z'), NY)).toBe(true); // Wed 09:00
    expect(isBusinessTime(new Date('2026-11-25T22:00:00Z'), NY)).toBe(false); // Wed 17:00
    expect(isBusinessTime(new Date('2026-11-28T16:00:00Z'), NY)).toBe(false); // Sat 11:00
  });
});
