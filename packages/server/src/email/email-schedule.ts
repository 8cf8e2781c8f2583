import { addDays } from '../analytics/analytics-periods';
import { dateAndTimeIn } from '../platform/time';

// When e-mail reports are due and what "business hours" are (issue 24, ADR 063). Pure: every function
// takes the instant it reasons about, so tests need no clock and never wait for 09:00.

/** Reports go out at this hour of TIME_ZONE, for the period before. */
export const REPORT_HOUR = 9;
/** Business hours: 09:00 to 17:00, Monday to Friday, in TIME_ZONE (holidays are not known). */
export const BUSINESS_DAY = { startHour: 9, endHour: 17 } as const;

const HOUR_MS = 3_600_000;

/** 0 = Sunday … 6 = Saturday, of a calendar date (YYYY-MM-DD). */
export const weekdayOf = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();

/**
 * The instant a wall-clock time of a date has in a zone. Across a daylight-saving gap the hour that does
 * not exist lands an hour later; in the repeated hour the first one is taken.
 */
export function zonedInstant(date: string, hour: number, timeZone: string): Date {
  const wall = Date.parse(`${date}T00:00:00Z`) + hour * HOUR_MS;
  let guess = wall;
  for (let i = 0; i < 3; i++) {
    const seen = dateAndTimeIn(new Date(guess), timeZone);
    const drift = wall - Date.parse(`${seen.date}T${seen.time}Z`);
    if (drift === 0) break;
    guess += drift;
  }
  return new Date(guess);
}

export type ReportRule = 'daily' | 'weekly' | 'monthly';

export type DueReport = {
  rule: ReportRule;
  /** The period's first day: with the rule, it names the report once for every replica. */
  periodKey: string;
  /** The period as [from, to) instants. */
  from: Date;
  to: Date;
  /** For the subject: '2026-11-24', '2026-11-16 to 2026-11-22' or '2026-10-01 to 2026-10-31'. */
  label: string;
};

/**
 * The reports due at `now`: from 09:00 on, the daily summary of the day before; on Mondays also the
 * weekly one of the seven days before (Monday to Sunday); on the first of a month also the monthly one
 * of the month before. A replica that starts after 09:00 still sends the day's reports once (the
 * sent-table decides); before 09:00 nothing is due.
 */
export function dueReports(now: Date, timeZone: string): DueReport[] {
  const { date, time } = dateAndTimeIn(now, timeZone);
  if (Number(time.slice(0, 2)) < REPORT_HOUR) return [];
  const to = zonedInstant(date, 0, timeZone);
  const yesterday = addDays(date, -1);
  const due: DueReport[] = [
    { rule: 'daily', periodKey: yesterday, from: zonedInstant(yesterday, 0, timeZone), to, label: yesterday },
  ];
  if (weekdayOf(date) === 1) {
    const weekStart = addDays(date, -7);
    due.push({
      rule: 'weekly',
      periodKey: weekStart,
      from: zonedInstant(weekStart, 0, timeZone),
      to,
      label: `${weekStart} to ${yesterday}`,
    });
  }
  if (date.endsWith('-01')) {
    const monthStart = `${yesterday.slice(0, 7)}-01`;
    due.push({
      rule: 'monthly',
      periodKey: monthStart,
      from: zonedInstant(monthStart, 0, timeZone),
      to,
      label: `${monthStart} to ${yesterday}`,
    });
  }
  return due;
}

/**
 * Business hours (09:00–17:00 Monday–Friday in the zone) between two instants, in hours. Looks back at
 * most `maxDays` calendar days: the alert only asks whether a threshold of a few hours is passed.
 */
export function businessHoursBetween(from: Date, to: Date, timeZone: string, maxDays = 31): number {
  if (to <= from) return 0;
  const last = dateAndTimeIn(to, timeZone).date;
  let day = dateAndTimeIn(from, timeZone).date;
  const earliest = addDays(last, -maxDays);
  if (day < earliest) day = earliest;
  let ms = 0;
  for (; day <= last; day = addDays(day, 1)) {
    const weekday = weekdayOf(day);
    if (weekday === 0 || weekday === 6) continue;
    const open = zonedInstant(day, BUSINESS_DAY.startHour, timeZone).getTime();
    const close = zonedInstant(day, BUSINESS_DAY.endHour, timeZone).getTime();
    const start = Math.max(open, from.getTime());
    const end = Math.min(close, to.getTime());
    if (end > start) ms += end - start;
  }
  return ms / HOUR_MS;
}

/** Whether an instant falls in business hours: alerts about them are sent then, not at night or weekends. */
export function isBusinessTime(at: Date, timeZone: string): boolean {
  const { date, time } = dateAndTimeIn(at, timeZone);
  const weekday = weekdayOf(date);
  const hour = Number(time.slice(0, 2));
  return weekday >= 1 && weekday <= 5 && hour >= BUSINESS_DAY.startHour && hour < BUSINESS_DAY.endHour;
}
