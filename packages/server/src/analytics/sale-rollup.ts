import type { Pool, PoolClient } from 'pg';
import { inTransaction, isLockNotAvailable } from '../platform/pg-transaction';

// The sales' money kept by business day (ADR 070, "The money rollup"; migration sale_daily_rollup):
// lead_sale_daily holds the sold website leads (returned ones too, counted apart: ADR 073), summed per
// day, country, channel, source and campaign, kept by statement triggers on lead_sale. Its days are days of the zone it was summed in
// (lead_sale_daily_zone), which only the app knows: until the rollup has been summed in the dashboard's
// zone, the dashboard sums lead_sale itself.

/**
 * True when lead_sale_daily holds the sales summed in `timeZone`. When it does not (a new or migrated
 * database, TIME_ZONE changed), sums it again now unless someone holds it (`nowait`: a dashboard never
 * waits for a rebuild or a sale; it then sums lead_sale, as before, and a later one rebuilds).
 */
export async function saleRollupReady(pool: Pool, timeZone: string): Promise<boolean> {
  const { rows } = await pool.query<{ time_zone: string }>('select time_zone from lead_sale_daily_zone');
  if (rows[0]?.time_zone === timeZone) return true;
  try {
    await inTransaction(pool, [], async (client) => {
      await client.query('lock table lead_sale_daily in exclusive mode nowait');
      await rebuildSaleRollup(client, timeZone);
    });
    return true;
  } catch (err) {
    if (isLockNotAvailable(err)) return false;
    throw err;
  }
}

/**
 * Sums lead_sale_daily again from lead_sale, dated in `timeZone`, in the caller's transaction (it holds
 * the rollup in exclusive mode until commit: sales written meanwhile are added after it, by their
 * triggers).
 */
export async function rebuildSaleRollup(client: PoolClient, timeZone: string): Promise<void> {
  await client.query('select lead_sale_daily_rebuild($1)', [timeZone]);
}
