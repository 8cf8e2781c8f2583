import type { Pool, PoolClient } from 'pg';

// Unique visitors of closed days, counted once (ADR 070). A visitor counts once a day (issue 37), so a
// day's distinct visitors — over all its traffic, or under one value of one filter — add up across days;
// a closed day's never change. analytics_day_visitor_count keeps them; the open days are counted live.

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

/**
 * The visitors of the closed days `from`..`to` (kept days; the caller bounds them) over all traffic or
 * under one filter value, counting (and keeping) the days not counted yet first. While the rollups are
 * rebuilt (which holds this table), the days wait for the rebuilt visitors instead of counting the old ones.
 */
export async function keptDayVisitors(
  pool: Pool,
  range: { from: string; to: string },
  filter: { dimension: CountedDimension; value: string } | null,
): Promise<number> {
  const dimension = filter?.dimension ?? 'all';
  const value = filter?.value ?? '';
  const sum = () =>
    pool.query<{ n: string }>(
      `select coalesce(sum(visitors), 0)::text as n from analytics_day_visitor_count
       where dimension = $1 and value = $2 and day >= $3::date and day <= $4::date`,
      [dimension, value, range.from, range.to],
    );
  const [missing, kept] = await Promise.all([
    pool.query<{ day: string }>(
      `select d::date::text as day from generate_series($1::date, $2::date, interval '1 day') d
       where not exists (select 1 from analytics_day_visitor_count c
         where c.dimension = 'all' and c.value = '' and c.day = d::date)`,
      [range.from, range.to],
    ),
    sum(),
  ]);
  if (missing.rows.length === 0) return Number(kept.rows[0]?.n ?? 0);
  const client = await pool.connect();
  try {
    await client.query('begin');
    // One counter at a time, and never beside a rebuild (it locks this table): the count that follows
    // reads the visitors as committed once the lock is held.
    await client.query('lock table analytics_day_visitor_count in share row exclusive mode');
    await keepDayVisitorCounts(
      client,
      missing.rows.map((r) => r.day),
    );
    await client.query('commit');
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
  return Number((await sum()).rows[0]?.n ?? 0);
}
