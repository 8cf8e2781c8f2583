import { calendarDateIn, formatDateTimeIn, zoneLabel } from '@uf/shared/business-time';
import { appConfig } from './app-config';

// The admin's one clock (issue 26, ADR 060): every date and time shown or typed in the admin is in the
// server's TIME_ZONE, named by its short label ('ET'), never in the browser's own zone.

export type BusinessClock = {
  timeZone: string;
  /** 'ET' */
  zone: string;
  /** An instant as the business reads it: 'Nov 24, 2026, 9:30:00 PM'. */
  format(iso: string | Date): string;
  /** To the minute, for a table cell: 'Nov 24, 2026, 9:30 PM'. */
  formatShort(iso: string | Date): string;
  /** The same followed by the zone: 'Nov 24, 2026, 9:30:00 PM ET'. */
  formatWithZone(iso: string | Date): string;
  /** Today's business day, YYYY-MM-DD. */
  today(): string;
  /** A label with the zone: 'Created At' → 'Created At (ET)'. */
  label(text: string): string;
};

function makeClock(timeZone: string): BusinessClock {
  const zone = zoneLabel(timeZone);
  return {
    timeZone,
    zone,
    format: (iso) => formatDateTimeIn(iso, timeZone),
    formatShort: (iso) => formatDateTimeIn(iso, timeZone, false),
    formatWithZone: (iso) => `${formatDateTimeIn(iso, timeZone)} ${zone}`,
    today: () => calendarDateIn(new Date(), timeZone),
    label: (text) => `${text} (${zone})`,
  };
}

let clock: BusinessClock | null = null;

/** The deployment's business clock (it never changes while the page lives). */
export function businessClock(): BusinessClock {
  clock ??= makeClock(appConfig().timeZone);
  return clock;
}

/** What a date filter means, said next to it: 'Dates are whole days in ET (America/New_York).' */
export function businessDaysNote(): string {
  const c = businessClock();
  return `Dates are whole days in ${c.zone} (${c.timeZone}).`;
}
