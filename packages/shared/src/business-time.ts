// The business clock (issue 26, ADR 060): the admin shows and reads every date and time in the server's
// TIME_ZONE, whatever the browser's zone, and names the zone. Pure Intl, so the browser and the server
// format the same instant the same way.

const cache = new Map<string, Intl.DateTimeFormat>();
function formatter(key: string, make: () => Intl.DateTimeFormat): Intl.DateTimeFormat {
  let f = cache.get(key);
  if (!f) {
    f = make();
    cache.set(key, f);
  }
  return f;
}

/**
 * A short name of the zone for labels: 'ET' for America/New_York, 'PT' for Los Angeles ('shortGeneric'
 * does not change with daylight saving); a zone without a generic name gets its offset ('GMT+9').
 */
export function zoneLabel(timeZone: string, at: Date = new Date()): string {
  const parts = formatter(
    `label:${timeZone}`,
    () => new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'shortGeneric' }),
  ).formatToParts(at);
  return parts.find((p) => p.type === 'timeZoneName')?.value ?? timeZone;
}

/** '2026-11-25T09:16:51.000Z' in America/New_York → 'Nov 25, 2026, 4:16:51 AM'. */
export function formatDateTimeIn(iso: string | Date, timeZone: string, withSeconds = true): string {
  const date = typeof iso === 'string' ? new Date(iso) : iso;
  if (Number.isNaN(date.getTime())) return String(iso);
  return formatter(
    `dt:${timeZone}:${withSeconds}`,
    () =>
      new Intl.DateTimeFormat('en-US', {
        timeZone,
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
        ...(withSeconds ? { second: '2-digit' as const } : {}),
      }),
  ).format(date);
}

/** The calendar day (YYYY-MM-DD) of an instant in a zone. */
export function calendarDateIn(at: Date, timeZone: string): string {
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const part of formatter(
    `ymd:${timeZone}`,
    () => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }),
  ).formatToParts(at))
    parts[part.type] = part.value;
  return `${parts.year}-${parts.month}-${parts.day}`;
}
