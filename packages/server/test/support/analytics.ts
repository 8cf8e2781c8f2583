import type { FastifyInstance } from 'fastify';
import type { Pool } from 'pg';
import { ANALYTICS_DELTA_ROLLUPS } from '../../src/db/migrations/Migration20261127150000_analytics_rollup_deltas';

/** An ordinary desktop browser: what the bot filter lets through. */
export const BROWSER_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

export const ROLLUP_TABLES = [
  'analytics_daily_type',
  'analytics_daily_country',
  'analytics_daily_referrer',
  'analytics_daily_country_referrer',
  'analytics_monthly_country',
  'analytics_monthly_referrer',
  'analytics_monthly_country_referrer',
  'analytics_daily_source',
  'analytics_monthly_source',
  'analytics_visit',
  'analytics_day_visitor',
  'analytics_daily_device',
  'analytics_monthly_device',
] as const;

/** POST /api/analytics/track as a browser would send it. */
export function track(
  app: FastifyInstance,
  { body, headers = {} }: { body: Record<string, unknown>; headers?: Record<string, string> },
) {
  return app.inject({
    method: 'POST',
    url: '/api/analytics/track',
    headers: { 'user-agent': BROWSER_UA, ...headers },
    payload: body,
  });
}

export async function clearAnalytics(pool: Pool) {
  await pool.query(`truncate analytics_event, ${ROLLUP_TABLES.join(', ')}`);
}

/**
 * A rollup's rows as its readers see them: the delta rollups (issue 23) summed per key, zero sums
 * left out; the keyed tables (visits, a day's visitors) as they are.
 */
export async function rollupRows(pool: Pool, table: string): Promise<Record<string, unknown>[]> {
  const period = table.includes('monthly') ? 'month' : 'day';
  const delta = ANALYTICS_DELTA_ROLLUPS.find((r) => r.table === table);
  if (!delta) return (await pool.query(`select *, ${period}::text as ${period} from ${table}`)).rows;
  const keys = delta.keys.map((k) => (k === period ? `${k}::text as ${k}` : k)).join(', ');
  const sums = delta.counts.map((c) => `sum(${c})::text as ${c}`).join(', ');
  const { rows } = await pool.query(
    `select ${keys}, ${sums} from ${table} group by ${delta.keys.map((_, i) => i + 1).join(', ')}
     having ${delta.counts.map((c) => `sum(${c}) <> 0`).join(' or ')}
     order by ${delta.keys.map((_, i) => i + 1).join(', ')}`,
  );
  return rows;
}

/** Every rollup row, in a stable order, for comparing two states. */
export async function rollupSnapshot(pool: Pool) {
  const out: Record<string, Record<string, unknown>[]> = {};
  for (const table of ROLLUP_TABLES) {
    const rows = await rollupRows(pool, table);
    // prev_steps only tells ingestion which steps were new; the rollups' meaning is in the rest.
    for (const row of rows) delete row.prev_steps;
    out[table] = rows
      .map((row) => JSON.stringify(row))
      .sort()
      .map((row) => JSON.parse(row));
  }
  return out as Record<(typeof ROLLUP_TABLES)[number], Record<string, unknown>[]>;
}

export type FixtureEvent = {
  at: string;
  type: string;
  country: string | null;
  referrer: string;
  /** The browser session; each event its own visit when left out. */
  session?: string;
};

/** Raw events at given instants (the API always stamps now()); rollups are then rebuilt from them. */
export async function insertRawEvents(pool: Pool, events: FixtureEvent[]) {
  for (const [i, e] of events.entries()) {
    await pool.query(
      `insert into analytics_event (created_at, event_type, page, referrer, referrer_host, referrer_url, session_id, country)
       values ($1, $2, 'home', $3, $4, $3, $6, $5)`,
      [
        e.at,
        e.type,
        e.referrer,
        e.referrer === 'direct' ? 'direct' : new URL(e.referrer).hostname,
        e.country,
        e.session ?? `fixture-${e.at}-${i}`,
      ],
    );
  }
}
