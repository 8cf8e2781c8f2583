import { describe, expect, it } from 'vitest';
import { dateAndTimeIn } from './time';

describe('dateAndTimeIn', () => {
  it('gives the calendar date and wall time in the zone, across DST and midnight', () => {
    // 07:30 UTC on the day New York moves to daylight time (02:00 → 03:00) is 03:30 EDT.
    expect(dateAndTimeIn(new Date('2026-03-08T07:30:00Z'), 'America/New_York')).toEqual({
      date: '2026-03-08',
      time: '03:30:00',
    });
    // Midnight is 00, never 24; the UTC date differs from the local one.
    expect(dateAndTimeIn(new Date('2026-11-24T05:00:05Z'), 'America/New_York')).toEqual({
      date: '2026-11-24',
      time: '00:00:05',
    });
    expect(dateAndTimeIn(new Date('2026-11-24T05:00:05Z'), 'America/Los_Angeles')).toEqual({
      date: '2026-11-23',
      time: '21:00:05',
    });
    // The same zone again (the cached formatter) and another one interleaved give the same answers.
    expect(dateAndTimeIn(new Date('2026-03-08T07:30:00Z'), 'America/New_York').time).toBe('03:30:00');
  });

  it('answers each instant of a second alike and moves on with the next second', () => {
    const zone = 'America/Chicago';
    expect(dateAndTimeIn(new Date('2026-11-24T05:59:59.100Z'), zone)).toEqual({
      date: '2026-11-23',
      time: '23:59:59',
    });
    expect(dateAndTimeIn(new Date('2026-11-24T05:59:59.900Z'), zone)).toEqual({
      date: '2026-11-23',
      time: '23:59:59',
    });
    expect(dateAndTimeIn(new Date('2026-11-24T06:00:00.000Z'), zone)).toEqual({
      date: '2026-11-24',
      time: '00:00:00',
    });
    // A caller changing its copy does not change the next answer.
    const answer = dateAndTimeIn(new Date('2026-11-24T06:00:00.500Z'), zone);
    answer.date = 'changed';
    expect(dateAndTimeIn(new Date('2026-11-24T06:00:00.700Z'), zone).date).toBe('2026-11-24');
  });
});
