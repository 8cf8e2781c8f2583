import type { Pool, PoolClient } from 'pg';
import { inTransaction, isLockNotAvailable } from '../platform/pg-transaction';

// Unique visitors of closed days, counted once (ADR 070). A visitor counts once a day (issue 37), so a
// day's distinct visitors — over all its traffic, under one value of one filter, or under a combination
// of filters — add up across days; a closed day's never change. analytics_day_visitor_count keeps them;
// the open days are counted live.

/** The filters a day's count is kept for, each on its own (a combination is counted exactly). */
export const COUNTED_DIMENSIONS = ['country', 'channel', 'source', 'campaign'] as const;
export type CountedDimension = (typeof COUNTED_DIMENSIONS)[number];

/**
 * The last closed day in the business time zone: the day before yesterday. An event is dated by its
 * transaction's start (created_at), so a batch committed just after midnight may still add to yesterday.
 */
export const LAST_CLOSED_DAY = (timeZone: string) => `((now() at time zone ${timeZone})::date - 2)`;

/**
 * Counts the visitors of the given days (ISO dates) from analytics_day_visitor and keeps them, a day
 * without visitors as a 0 over all traffic (so it is not counted again). Days already kept stay as they are.
 */
export async function keepDayVisitorCounts(db: Pool | PoolClient, days: string[]): Promise<void> {
  if (days.length === 0) return;
  const perDimension = COUNTED_DIMENSIONS.map(
    (d) => `select day, '${d}', ${d}, count(distinct visitor_id)::int from analytics_day_visitor
       where day = any($1::date[]) group by day, ${d}`,
  );
  await db.query(
    `insert into analytics_day_visitor_count (day, dimension, value, visitors)
     select d.day, 'all', '', count(distinct v.visitor_id)::int
       from unnest($1::date[]) d(day) left join analytics_day_visitor v on v.day = d.day group by d.day
     union all ${perDimension.join(' union all ')}
     on conflict do nothing`,
    [days],
  );
}

/** A filter of the dashboard a count is kept under: the column and the value it must hold. */
export type VisitorFilter = { dimension: CountedDimension; value: string };

/** Counts the visitors of the given days under a combination of filters and keeps them, as `key`. */
async function keepCombinedCounts(db: PoolClient, days: string[], filters: VisitorFilter[], key: string) {
  const on = filters.map((f, i) => `v.${f.dimension} = $${i + 3}`).join(' and ');
  await db.query(
    `insert into analytics_day_visitor_count (day, dimension, value, visitors)
     select d.day, 'filters', $2, count(distinct v.visitor_id)::int
       from unnest($1::date[]) d(day) left join analytics_day_visitor v on v.day = d.day and ${on}
     group by d.day
     on conflict do nothing`,
    [days, key, ...filters.map((f) => f.value)],
  );
}

/** Days counted per statement when a dashboard finds days not kept yet (each well within statement_timeout). */
const DAYS_PER_STATEMENT = 31;

/**
 * The visitors of the closed days `from`..`to` (kept days; the caller bounds them) over all traffic or
 * under one filter value, counting (and keeping) the days not counted yet first — or null when another
 * request or a rollup rebuild holds the counts: the caller then counts those days exactly, as before.
 */
export async function keptDayVisitors(
  pool: Pool,
  range: { from: string; to: string },
  filters: VisitorFilter[],
): Promise<number | null> {
  // One filter or none: kept for every day at once, marked by its count over all traffic. A combination:
  // kept day by day as dashboards ask for it, under the combination itself.
  const combined = filters.length > 1;
  const { dimension, value } = combined
    ? { dimension: 'filters', value: JSON.stringify(filters.map((f) => [f.dimension, f.value])) }
    : { dimension: filters[0]?.dimension ?? 'all', value: filters[0]?.value ?? '' };
  const marker = combined ? { dimension, value } : { dimension: 'all', value: '' };
  const sumSql = `select coalesce(sum(visitors), 0)::text as n from analytics_day_visitor_count
    where dimension = $1 and value = $2 and day >= $3::date and day <= $4::date`;
  const sum = () => pool.query<{ n: string }>(sumSql, [dimension, value, range.from, range.to]);
  // The days not kept yet and the kept sum in one statement, so from one snapshot: read apart, a keep
  // committed between the two (another request's, or the same dashboard's other figure) made the days
  // look kept while the sum still missed them — the card showed only the open days' visitors.
  const { rows } = await pool.query<{ n: string; missing: string[] }>(
    `select (${sumSql}) as n,
       array(select d::date::text from generate_series($3::date, $4::date, interval '1 day') d
         where not exists (select 1 from analytics_day_visitor_count c
           where c.dimension = $5 and c.value = $6 and c.day = d::date) order by d) as missing`,
    [dimension, value, range.from, range.to, marker.dimension, marker.value],
  );
  const missing = rows[0]?.missing ?? [];
  if (missing.length === 0) return Number(rows[0]?.n ?? 0);
  try {
    await inTransaction(pool, [], async (client) => {
      // One counter at a time, never beside a rebuild (which locks this table), and nobody waits: the
      // counts that follow the lock read the visitors as committed once it is held.
      await client.query('lock table analytics_day_visitor_count in share row exclusive mode nowait');
      for (let i = 0; i < missing.length; i += DAYS_PER_STATEMENT) {
        const some = missing.slice(i, i + DAYS_PER_STATEMENT);
        await (combined
          ? keepCombinedCounts(client, some, filters, value)
          : keepDayVisitorCounts(client, some));
      }
    });
  } catch (err) {
    if (isLockNotAvailable(err)) return null;
    throw err;
  }
  return Number((await sum()).rows[0]?.n ?? 0);
}
