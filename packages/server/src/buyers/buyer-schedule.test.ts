import type { BuyerSchedule, BuyerWindow } from '@uf/shared/buyers';
import { describe, expect, it } from 'vitest';
import { capPeriodKey, isOpen, localTime, nextOpening } from './buyer-schedule';

// Buyer hours and cap periods (issue 34, ADR 069) on fixed instants, around Chicago's 2026 clock
// changes: spring forward Sun 2026-03-08 02:00 CST → 03:00 CDT (07:59:59Z → 08:00Z), fall back
// Sun 2026-11-01 02:00 CDT → 01:00 CST (06:59:59Z → 07:00Z). CST is UTC-6, CDT UTC-5.

const ZONE = 'America/Chicago';
const ALL_DAYS: BuyerWindow['days'] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const schedule = (...windows: BuyerWindow[]): BuyerSchedule => ({ timeZone: ZONE, windows });
const at = (iso: string) => new Date(iso);

describe('localTime', () => {
  it('gives the local day, minutes, date and hour', () => {
    expect(localTime(at('2026-03-08T07:30:00Z'), ZONE)).toEqual({
      day: 'sun',
      minutes: 90,
      date: '2026-03-08',
      hour: 1,
    });
    expect(localTime(at('2026-03-08T08:00:00Z'), ZONE)).toEqual({
      day: 'sun',
      minutes: 180,
      date: '2026-03-08',
      hour: 3,
    });
    // 05:30Z on Saturday is still Friday evening in Chicago.
    expect(localTime(at('2026-11-21T05:30:00Z'), ZONE)).toEqual({
      day: 'fri',
      minutes: 1410,
      date: '2026-11-20',
      hour: 23,
    });
    expect(localTime(at('2026-11-21T05:30:00Z'), 'UTC')).toEqual({
      day: 'sat',
      minutes: 330,
      date: '2026-11-21',
      hour: 5,
    });
  });
});

describe('isOpen', () => {
  it('is always open without a schedule', () => {
    expect(isOpen(null, at('2026-03-08T07:30:00Z'))).toBe(true);
    expect(isOpen(undefined, at('2026-03-08T07:30:00Z'))).toBe(true);
  });

  it('opens a 09:00–17:00 window at 09:00 local on the day the clocks go forward', () => {
    const s = schedule({ days: ALL_DAYS, start: '09:00', end: '17:00' });
    // Saturday (CST): 09:00 local is 15:00Z.
    expect(isOpen(s, at('2026-03-07T14:59:59Z'))).toBe(false);
    expect(isOpen(s, at('2026-03-07T15:00:00Z'))).toBe(true);
    expect(isOpen(s, at('2026-03-07T22:59:59Z'))).toBe(true);
    expect(isOpen(s, at('2026-03-07T23:00:00Z'))).toBe(false);
    // Sunday (CDT from 02:00): 09:00 local is 14:00Z, an hour earlier in UTC.
    expect(isOpen(s, at('2026-03-08T13:59:59Z'))).toBe(false);
    expect(isOpen(s, at('2026-03-08T14:00:00Z'))).toBe(true);
    expect(isOpen(s, at('2026-03-08T21:59:59Z'))).toBe(true);
    expect(isOpen(s, at('2026-03-08T22:00:00Z'))).toBe(false);
  });

  it('opens a 09:00–17:00 window at 09:00 local on the day the clocks go back', () => {
    const s = schedule({ days: ALL_DAYS, start: '09:00', end: '17:00' });
    // Saturday (CDT): 14:00Z. Sunday (CST from 02:00): 15:00Z.
    expect(isOpen(s, at('2026-10-31T13:59:59Z'))).toBe(false);
    expect(isOpen(s, at('2026-10-31T14:00:00Z'))).toBe(true);
    expect(isOpen(s, at('2026-11-01T14:00:00Z'))).toBe(false);
    expect(isOpen(s, at('2026-11-01T14:59:59Z'))).toBe(false);
    expect(isOpen(s, at('2026-11-01T15:00:00Z'))).toBe(true);
    expect(isOpen(s, at('2026-11-01T22:59:59Z'))).toBe(true);
    expect(isOpen(s, at('2026-11-01T23:00:00Z'))).toBe(false);
  });

  it('keeps a 01:00–03:00 window to the one hour that exists on the spring-forward day', () => {
    const s = schedule({ days: ['sun'], start: '01:00', end: '03:00' });
    expect(isOpen(s, at('2026-03-08T06:59:59Z'))).toBe(false); // 00:59:59 CST
    expect(isOpen(s, at('2026-03-08T07:00:00Z'))).toBe(true); // 01:00 CST
    expect(isOpen(s, at('2026-03-08T07:59:59Z'))).toBe(true); // 01:59:59 CST
    expect(isOpen(s, at('2026-03-08T08:00:00Z'))).toBe(false); // 03:00 CDT
    // On the fall-back day the same window lasts three hours: 01:00 CDT to 03:00 CST.
    expect(isOpen(s, at('2026-11-01T05:59:59Z'))).toBe(false);
    expect(isOpen(s, at('2026-11-01T06:00:00Z'))).toBe(true);
    expect(isOpen(s, at('2026-11-01T07:30:00Z'))).toBe(true); // the second 01:30
    expect(isOpen(s, at('2026-11-01T08:59:59Z'))).toBe(true);
    expect(isOpen(s, at('2026-11-01T09:00:00Z'))).toBe(false);
  });

  it('runs a window past midnight into the following day, listed by the day it starts', () => {
    // Fri 2026-11-20, CST: local = UTC - 6 h.
    const fri = schedule({ days: ['fri'], start: '22:00', end: '02:00' });
    expect(isOpen(fri, at('2026-11-21T03:59:59Z'))).toBe(false); // Fri 21:59:59
    expect(isOpen(fri, at('2026-11-21T04:00:00Z'))).toBe(true); // Fri 22:00
    expect(isOpen(fri, at('2026-11-21T05:30:00Z'))).toBe(true); // Fri 23:30
    expect(isOpen(fri, at('2026-11-21T06:00:00Z'))).toBe(true); // Sat 00:00
    expect(isOpen(fri, at('2026-11-21T07:30:00Z'))).toBe(true); // Sat 01:30
    expect(isOpen(fri, at('2026-11-21T08:00:00Z'))).toBe(false); // Sat 02:00
    expect(isOpen(fri, at('2026-11-22T05:30:00Z'))).toBe(false); // Sat 23:30: Saturday is not listed
    expect(isOpen(fri, at('2026-11-20T07:30:00Z'))).toBe(false); // Fri 01:30: Thursday is not listed
    const friSat = schedule({ days: ['fri', 'sat'], start: '22:00', end: '02:00' });
    expect(isOpen(friSat, at('2026-11-22T05:30:00Z'))).toBe(true); // Sat 23:30
    expect(isOpen(friSat, at('2026-11-22T07:30:00Z'))).toBe(true); // Sun 01:30
    expect(isOpen(friSat, at('2026-11-22T08:00:00Z'))).toBe(false); // Sun 02:00
  });

  it('is open when any window is', () => {
    const s = schedule(
      { days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '09:00', end: '12:00' },
      { days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '13:00', end: '17:00' },
    );
    expect(isOpen(s, at('2026-11-20T17:59:59Z'))).toBe(true); // Fri 11:59:59
    expect(isOpen(s, at('2026-11-20T18:30:00Z'))).toBe(false); // Fri 12:30, lunch
    expect(isOpen(s, at('2026-11-20T19:00:00Z'))).toBe(true); // Fri 13:00
    expect(isOpen(s, at('2026-11-21T17:00:00Z'))).toBe(false); // Sat 11:00
  });

  it('stays closed for windows the schema refuses and zones the runtime does not know', () => {
    expect(
      isOpen(schedule({ days: ALL_DAYS, start: '09:00', end: '09:00' }), at('2026-11-20T15:00:00Z')),
    ).toBe(false);
    expect(isOpen(schedule({ days: ALL_DAYS, start: '9am', end: '17:00' }), at('2026-11-20T15:00:00Z'))).toBe(
      false,
    );
    const unknownZone: BuyerSchedule = {
      timeZone: 'Mars/Olympus_Mons',
      windows: [{ days: ALL_DAYS, start: '00:00', end: '23:59' }],
    };
    expect(isOpen(unknownZone, at('2026-11-20T15:00:00Z'))).toBe(false);
  });
});

describe('capPeriodKey', () => {
  it('switches day keys at local midnight on the days the clocks change', () => {
    // 2026-03-08 is 23 hours long: 06:00Z (CST midnight) to 05:00Z next day (CDT midnight).
    expect(capPeriodKey('day', at('2026-03-08T05:59:59Z'), ZONE)).toBe('d:2026-03-07');
    expect(capPeriodKey('day', at('2026-03-08T06:00:00Z'), ZONE)).toBe('d:2026-03-08');
    expect(capPeriodKey('day', at('2026-03-09T04:59:59Z'), ZONE)).toBe('d:2026-03-08');
    expect(capPeriodKey('day', at('2026-03-09T05:00:00Z'), ZONE)).toBe('d:2026-03-09');
    // 2026-11-01 is 25 hours long: 05:00Z (CDT midnight) to 06:00Z next day (CST midnight).
    expect(capPeriodKey('day', at('2026-11-01T04:59:59Z'), ZONE)).toBe('d:2026-10-31');
    expect(capPeriodKey('day', at('2026-11-01T05:00:00Z'), ZONE)).toBe('d:2026-11-01');
    expect(capPeriodKey('day', at('2026-11-02T05:59:59Z'), ZONE)).toBe('d:2026-11-01');
    expect(capPeriodKey('day', at('2026-11-02T06:00:00Z'), ZONE)).toBe('d:2026-11-02');
  });

  it('gives the two 01:xx hours of the fall-back day different hour keys', () => {
    expect(capPeriodKey('hour', at('2026-11-01T05:59:59Z'), ZONE)).toBe('h:2026-11-01T00-300');
    expect(capPeriodKey('hour', at('2026-11-01T06:00:00Z'), ZONE)).toBe('h:2026-11-01T01-300');
    expect(capPeriodKey('hour', at('2026-11-01T06:59:59Z'), ZONE)).toBe('h:2026-11-01T01-300');
    expect(capPeriodKey('hour', at('2026-11-01T07:00:00Z'), ZONE)).toBe('h:2026-11-01T01-360');
    expect(capPeriodKey('hour', at('2026-11-01T07:59:59Z'), ZONE)).toBe('h:2026-11-01T01-360');
    expect(capPeriodKey('hour', at('2026-11-01T08:00:00Z'), ZONE)).toBe('h:2026-11-01T02-360');
    // Spring forward: 01:xx CST, then straight to 03:xx CDT.
    expect(capPeriodKey('hour', at('2026-03-08T07:59:59Z'), ZONE)).toBe('h:2026-03-08T01-360');
    expect(capPeriodKey('hour', at('2026-03-08T08:00:00Z'), ZONE)).toBe('h:2026-03-08T03-300');
    // Zones ahead of UTC, and UTC itself, carry a '+'; a half-hour zone its minutes.
    expect(capPeriodKey('hour', at('2026-11-20T15:00:00Z'), 'Asia/Kolkata')).toBe('h:2026-11-20T20+330');
    expect(capPeriodKey('hour', at('2026-11-20T15:00:00Z'), 'UTC')).toBe('h:2026-11-20T15+0');
    // Milliseconds do not shift the offset.
    expect(capPeriodKey('hour', at('2026-11-01T06:59:59.999Z'), ZONE)).toBe('h:2026-11-01T01-300');
  });

  it('keys weeks by their local Monday and months by their local month', () => {
    // Sun 2026-11-01 23:30 CST is Monday 05:30Z: still the week of Mon 2026-10-26 in Chicago.
    expect(capPeriodKey('week', at('2026-11-02T05:30:00Z'), ZONE)).toBe('w:2026-10-26');
    expect(capPeriodKey('week', at('2026-11-02T06:00:00Z'), ZONE)).toBe('w:2026-11-02');
    expect(capPeriodKey('week', at('2026-11-08T12:00:00Z'), ZONE)).toBe('w:2026-11-02');
    // A week across a month and a year end.
    expect(capPeriodKey('week', at('2027-01-01T12:00:00Z'), ZONE)).toBe('w:2026-12-28');
    // Sat 2026-10-31 23:30 CDT is 04:30Z on November 1st.
    expect(capPeriodKey('month', at('2026-11-01T04:30:00Z'), ZONE)).toBe('m:2026-10');
    expect(capPeriodKey('month', at('2026-11-01T05:00:00Z'), ZONE)).toBe('m:2026-11');
    expect(capPeriodKey('total', at('2026-11-01T05:00:00Z'), ZONE)).toBe('t');
  });
});

describe('nextOpening (issue 49: "Closed until …")', () => {
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  const weekdays: BuyerWindow['days'] = ['mon', 'tue', 'wed', 'thu', 'fri'];

  it('is now when open, and always without a schedule', () => {
    const now = at('2026-11-20T16:00:00Z'); // Fri 10:00 CST
    expect(iso(nextOpening(schedule({ days: weekdays, start: '09:00', end: '17:00' }), now))).toBe(
      now.toISOString(),
    );
    expect(iso(nextOpening(null, now))).toBe(now.toISOString());
  });

  it('finds the next window start: later today, or over the weekend', () => {
    const office = schedule({ days: weekdays, start: '09:00', end: '17:00' });
    // Fri 07:00 CST → Fri 09:00 CST.
    expect(iso(nextOpening(office, at('2026-11-20T13:00:00Z')))).toBe('2026-11-20T15:00:00.000Z');
    // Fri 18:00 CST → Mon 09:00 CST.
    expect(iso(nextOpening(office, at('2026-11-21T00:00:00Z')))).toBe('2026-11-23T15:00:00.000Z');
    // An overnight window (Chicago's 22:00 to 02:00) opens at 22:00 of a listed day.
    const nights = schedule({ days: ['sat'], start: '22:00', end: '02:00' });
    expect(iso(nextOpening(nights, at('2026-11-21T00:00:00Z')))).toBe('2026-11-22T04:00:00.000Z');
  });

  it('counts wall-clock hours across the spring-forward day', () => {
    // Sat 2026-03-07 20:00 CST; the 09:00 start on Sunday is 09:00 CDT (14:00Z), not 15:00Z.
    const daily = schedule({ days: ALL_DAYS, start: '09:00', end: '17:00' });
    expect(iso(nextOpening(daily, at('2026-03-08T02:00:00Z')))).toBe('2026-03-08T14:00:00.000Z');
    // A start the clocks skip (02:30) opens when they jump, 03:00 CDT = 08:00Z.
    const skipped = schedule({ days: ['sun'], start: '02:30', end: '05:00' });
    expect(iso(nextOpening(skipped, at('2026-03-08T06:00:00Z')))).toBe('2026-03-08T08:00:00.000Z');
  });

  it('opens at the first of a repeated hour on the fall-back day', () => {
    // Sun 2026-11-01 00:30 CDT (05:30Z); 01:30 happens at 06:30Z (CDT) and again at 07:30Z (CST).
    const repeated = schedule({ days: ['sun'], start: '01:30', end: '04:00' });
    expect(iso(nextOpening(repeated, at('2026-11-01T05:30:00Z')))).toBe('2026-11-01T06:30:00.000Z');
    // After the change, Monday 09:00 is CST again: 15:00Z.
    const office = schedule({ days: weekdays, start: '09:00', end: '17:00' });
    expect(iso(nextOpening(office, at('2026-11-01T12:00:00Z')))).toBe('2026-11-02T15:00:00.000Z');
  });

  it('is null when the buyer never opens', () => {
    expect(nextOpening({ timeZone: ZONE, windows: [] }, at('2026-11-20T16:00:00Z'))).toBeNull();
    const unknownZone = {
      timeZone: 'Mars/Olympus_Mons',
      windows: [{ days: ALL_DAYS, start: '09:00', end: '17:00' }],
    };
    expect(nextOpening(unknownZone, at('2026-11-20T16:00:00Z'))).toBeNull();
  });
});
