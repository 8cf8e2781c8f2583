import type { BuyerSchedule } from '@uf/shared/buyers';
import type { Pool } from 'pg';
import { isOpen } from './buyer-schedule';

// Buyers that stopped buying (issue 34, ADR 069): an active buyer offered leads that accepted none for
// IDLE_OPEN_HOURS of its own open hours is reported to the admins, at most once per REPORT_EVERY_HOURS.
// (Errors in a row pause a buyer as they happen: buyer-sale.ts. This catches the quiet failure — a buyer
// whose answers changed shape, so every lead reads as rejected.)

export const IDLE_OPEN_HOURS = 4;
const REPORT_EVERY_HOURS = 12;
const STEP_MINUTES = 5;
/** Open hours are counted over at most this many days back. */
const LOOK_BACK_DAYS = 14;

/** Hours within [from, to) the schedule is open (no schedule: every hour), by STEP_MINUTES steps. */
export function openHoursBetween(schedule: BuyerSchedule | undefined, from: Date, to: Date): number {
  const start = Math.max(from.getTime(), to.getTime() - LOOK_BACK_DAYS * 86_400_000);
  if (!schedule) return Math.max(0, (to.getTime() - start) / 3_600_000);
  let steps = 0;
  for (let t = start; t < to.getTime(); t += STEP_MINUTES * 60_000) {
    if (isOpen(schedule, new Date(t))) steps += 1;
  }
  return (steps * STEP_MINUTES) / 60;
}

type IdleRow = {
  id: string;
  name: string;
  schedule: BuyerSchedule | null;
  idle_since: Date;
  offered: number;
};

/** Reports the idle buyers once each (the alert's own 12-hour guard, and idle_reported_at here). */
export async function reportIdleBuyers(
  pool: Pick<Pool, 'query'>,
  now: Date,
  onIdle: (buyer: { id: string; name: string; openHours: number; offered: number }) => Promise<unknown>,
): Promise<number> {
  const { rows } = await pool.query<IdleRow>(
    `select b.id, b.name, b.config->'schedule' as schedule, b.idle_since,
       (select count(*) from sale_attempt s where s.buyer_id = b.id and not s.test and s.at >= b.idle_since
          and s.outcome not in ('skipped', 'sending'))::int as offered
     from buyer b
     where b.status = 'active' and b.idle_since < $1::timestamptz - make_interval(hours => $2)
       and (b.idle_reported_at is null or b.idle_reported_at < $1::timestamptz - make_interval(hours => $3))`,
    [now, IDLE_OPEN_HOURS, REPORT_EVERY_HOURS],
  );
  let reported = 0;
  for (const r of rows) {
    if (r.offered === 0) continue;
    const openHours = openHoursBetween(r.schedule ?? undefined, new Date(r.idle_since), now);
    if (openHours < IDLE_OPEN_HOURS) continue;
    await pool.query('update buyer set idle_reported_at = $2 where id = $1', [r.id, now]);
    await onIdle({ id: r.id, name: r.name, openHours: Math.floor(openHours), offered: r.offered });
    reported += 1;
  }
  return reported;
}
