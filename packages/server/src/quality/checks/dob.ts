import type { ReasonCode } from '@uf/shared/quality';

// Birth date check (issue 33): the date must exist on the calendar (no February 30, April 31, or
// February 29 outside a leap year). The 1940–1994 range is the spec's age_restriction, checked by
// the lead schema, not here.

function toInt(value: number | string): number | null {
  if (typeof value === 'number') return Number.isInteger(value) ? value : null;
  return /^\s*\d{1,4}\s*$/.test(value) ? Number(value) : null;
}

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);
}

export function checkBirthDate(
  month: number | string,
  day: number | string,
  year: number | string,
): Extract<ReasonCode, 'DOB_INVALID'>[] {
  const m = toInt(month);
  const d = toInt(day);
  const y = toInt(year);
  if (m === null || d === null || y === null || y < 1 || m < 1 || m > 12 || d < 1) return ['DOB_INVALID'];
  return d > daysInMonth(y, m) ? ['DOB_INVALID'] : [];
}
