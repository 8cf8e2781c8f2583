import type { BuyerSchedule, CapPeriod, WeekDay } from '@uf/shared/buyers';
import { dateAndTimeIn } from '../platform/time';

// When a buyer takes leads and which cap period an instant counts in (issue 34, ADR 069). Everything is
// wall-clock time in the buyer's zone, read with Intl (through platform/time's cached formatter per
// zone), so daylight saving needs no code of its own: "09:00" is 09:00 local on the day the clocks
// change too, a window over the skipped hour is that much shorter, one over the repeated hour longer.

/** Sunday first, as Date#getUTCDay counts. */
const DAYS_FROM_SUNDAY: readonly WeekDay[] = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

type Wall = { day: WeekDay; minutes: number; date: string; hour: number; offsetMinutes: number };

/** A YYYY-MM-DD date as the UTC midnight starting it (calendar arithmetic only, no zone). */
function dateAsUtc(date: string): Date {
  const at = new Date(0);
  at.setUTCFullYear(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
  return at;
}

function isoDate(at: Date): string {
  const year = String(at.getUTCFullYear()).padStart(4, '0');
  const month = String(at.getUTCMonth() + 1).padStart(2, '0');
  const day = String(at.getUTCDate()).padStart(2, '0');
  return `${year}-${month}-${day}`;
}

function wallClock(at: Date, timeZone: string): Wall {
  const { date, time } = dateAndTimeIn(at, timeZone);
  const hour = Number(time.slice(0, 2));
  const minute = Number(time.slice(3, 5));
  const second = Number(time.slice(6, 8));
  const midnight = dateAsUtc(date);
  // The zone's offset at this instant: the wall clock read as if it were UTC, minus the instant (to the
  // second, as the wall clock is). -300 for Chicago in summer, -360 in winter.
  const wallAsUtc = midnight.getTime() + ((hour * 60 + minute) * 60 + second) * 1000;
  const instant = Math.floor(at.getTime() / 1000) * 1000;
  const offsetMinutes = Math.round((wallAsUtc - instant) / 60_000);
  return {
    day: DAYS_FROM_SUNDAY[midnight.getUTCDay()] as WeekDay,
    minutes: hour * 60 + minute,
    date,
    hour,
    offsetMinutes,
  };
}

/** The day of the week, minutes since local midnight, local date and hour of an instant in a zone. */
export function localTime(
  at: Date,
  timeZone: string,
): { day: WeekDay; minutes: number; date: string /* YYYY-MM-DD */; hour: number } {
  const { day, minutes, date, hour } = wallClock(at, timeZone);
  return { day, minutes, date, hour };
}

/** HH:MM as minutes since midnight, or null (the schema only lets 00:00 to 23:59 through). */
function minutesOf(clock: string): number | null {
  const m = /^(\d{2}):(\d{2})$/.exec(clock);
  if (!m) return null;
  const minutes = Number(m[1]) * 60 + Number(m[2]);
  return minutes < 24 * 60 ? minutes : null;
}

/**
 * True when the buyer takes leads at this instant; no schedule means always. A window is open on each
 * listed day from its start (inclusive) to its end (exclusive), local wall clock. One whose end comes
 * before its start crosses midnight: it opens on the listed day at its start and closes on the
 * following day at its end, whether or not that day is listed. A window whose end equals its start
 * (refused by the schema) is never open. An unknown time zone (one a runtime update dropped) closes
 * the schedule rather than guess at its hours.
 */
export function isOpen(schedule: BuyerSchedule | null | undefined, at: Date): boolean {
  if (!schedule) return true;
  let now: Wall;
  try {
    now = wallClock(at, schedule.timeZone);
  } catch {
    return false;
  }
  const yesterday = DAYS_FROM_SUNDAY[(DAYS_FROM_SUNDAY.indexOf(now.day) + 6) % 7] as WeekDay;
  return schedule.windows.some((window) => {
    const start = minutesOf(window.start);
    const end = minutesOf(window.end);
    if (start === null || end === null) return false;
    if (start < end) return window.days.includes(now.day) && now.minutes >= start && now.minutes < end;
    if (end < start) {
      return (
        (window.days.includes(now.day) && now.minutes >= start) ||
        (window.days.includes(yesterday) && now.minutes < end)
      );
    }
    return false;
  });
}

/**
 * The key of the cap period an instant counts in, in the buyer's zone: `h:2026-11-01T01-300` (local
 * date and hour, then the UTC offset in minutes, so the hour repeated when the clocks go back is two
 * periods, each an hour long), `d:2026-11-01`, `w:2026-10-26` (the local date of that week's Monday),
 * `m:2026-11`, `t` (all time).
 */
export function capPeriodKey(period: CapPeriod, at: Date, timeZone: string): string {
  if (period === 'total') return 't';
  const wall = wallClock(at, timeZone);
  switch (period) {
    case 'hour': {
      const sign = wall.offsetMinutes < 0 ? '-' : '+';
      return `h:${wall.date}T${String(wall.hour).padStart(2, '0')}${sign}${Math.abs(wall.offsetMinutes)}`;
    }
    case 'day':
      return `d:${wall.date}`;
    case 'week': {
      const monday = dateAsUtc(wall.date);
      monday.setUTCDate(monday.getUTCDate() - ((monday.getUTCDay() + 6) % 7));
      return `w:${isoDate(monday)}`;
    }
    case 'month':
      return `m:${wall.date.slice(0, 7)}`;
  }
}

const MINUTE = 60_000;

/** The zone's UTC offset in minutes at an instant. */
const offsetAt = (at: Date, timeZone: string) => wallClock(at, timeZone).offsetMinutes;

/**
 * The first instant at which a local date and minute-of-day happens in a zone. A time the clocks skip
 * (02:30 when they spring forward) is the instant they jump, when the local day passes it; a time that
 * happens twice (01:30 when they fall back) is its first occurrence.
 */
function instantOf(date: string, minutes: number, timeZone: string): Date {
  const wall = dateAsUtc(date).getTime() + minutes * MINUTE;
  // The offsets a day either side cover both sides of any change that day (no zone changes twice a day).
  const offsets = new Set([
    offsetAt(new Date(wall - 24 * 60 * MINUTE), timeZone),
    offsetAt(new Date(wall + 24 * 60 * MINUTE), timeZone),
  ]);
  const matching = [...offsets]
    .map((offset) => new Date(wall - offset * MINUTE))
    .filter((instant) => {
      const local = wallClock(instant, timeZone);
      return local.date === date && local.minutes === minutes;
    })
    .sort((a, b) => a.getTime() - b.getTime());
  if (matching[0]) return matching[0];
  // Skipped: between the two readings lies the jump; the first minute whose wall clock is past the time.
  const [a, b] = [...offsets].map((offset) => wall - offset * MINUTE).sort((x, y) => x - y);
  let lo = a ?? wall;
  let hi = b ?? wall;
  while (hi - lo > MINUTE) {
    const mid = lo + Math.floor((hi - lo) / 2 / MINUTE) * MINUTE;
    const local = wallClock(new Date(mid), timeZone);
    if (local.date > date || (local.date === date && local.minutes >= minutes)) hi = mid;
    else lo = mid;
  }
  return new Date(hi);
}

/**
 * When a closed buyer next takes leads (issue 49: the Buyers list's "Closed until …"): `at` itself when
 * it is open now (and always without a schedule), else the first window start after `at` at which it is
 * open, within the coming eight days; null when it never opens (no window, or a time zone this runtime
 * does not know). Found from the windows' starts, not by stepping through time, so daylight saving is
 * the zone's: a start the clocks skip opens when they jump, one they repeat opens the first time.
 */
export function nextOpening(schedule: BuyerSchedule | null | undefined, at: Date): Date | null {
  if (isOpen(schedule, at)) return at;
  if (!schedule) return at;
  let today: string;
  try {
    today = wallClock(at, schedule.timeZone).date;
  } catch {
    return null;
  }
  const candidates: Date[] = [];
  const day = dateAsUtc(today);
  for (let i = 0; i <= 8; i++) {
    const date = isoDate(day);
    const weekDay = DAYS_FROM_SUNDAY[day.getUTCDay()] as WeekDay;
    for (const window of schedule.windows) {
      const start = minutesOf(window.start);
      if (start === null || !window.days.includes(weekDay)) continue;
      const instant = instantOf(date, start, schedule.timeZone);
      if (instant.getTime() > at.getTime()) candidates.push(instant);
    }
    day.setUTCDate(day.getUTCDate() + 1);
  }
  candidates.sort((a, b) => a.getTime() - b.getTime());
  return candidates.find((c) => isOpen(schedule, c)) ?? null;
}
