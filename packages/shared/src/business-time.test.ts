import { describe, expect, it } from 'vitest';
import { calendarDateIn, formatDateTimeIn, zoneLabel } from './business-time';

describe('business time', () => {
  const instant = new Date('2026-11-25T02:30:00Z'); // 21:30 the day before in New York, 11:30 in Tokyo

  it('formats an instant in the given zone, not the runtime one', () => {
    expect(formatDateTimeIn(instant.toISOString(), 'America/New_York')).toBe('Nov 24, 2026, 9:30:00 PM');
    expect(formatDateTimeIn(instant, 'Asia/Tokyo')).toBe('Nov 25, 2026, 11:30:00 AM');
  });

  it('gives the calendar day in the zone', () => {
    expect(calendarDateIn(instant, 'America/New_York')).toBe('2026-11-24');
    expect(calendarDateIn(instant, 'Asia/Tokyo')).toBe('2026-11-25');
  });

  it('names the zone briefly, the same in summer and winter', () => {
    expect(zoneLabel('America/New_York', instant)).toBe('ET');
    expect(zoneLabel('America/New_York', new Date('2026-07-01T12:00:00Z'))).toBe('ET');
    expect(zoneLabel('America/Los_Angeles', instant)).toBe('PT');
  });
});
