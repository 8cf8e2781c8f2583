import type { Pool } from 'pg';

export type RateLimitResult = { allowed: boolean; count: number; retryAfterSeconds: number };

/**
 * Counts one hit on `key` in a fixed window, in PostgreSQL so every replica sees the same count.
 * One statement: the upsert resets the window when it has expired.
 */
export async function hitRateLimit(
  pool: Pool,
  key: string,
  limit: number,
  windowSeconds: number,
): Promise<RateLimitResult> {
  const { rows } = await pool.query<{ count: number; retry_after: number }>(
    `insert into rate_limit_bucket (key, window_start, count) values ($1, now(), 1)
     on conflict (key) do update set
       count = case when rate_limit_bucket.window_start <= now() - make_interval(secs => $2)
                    then 1 else rate_limit_bucket.count + 1 end,
       window_start = case when rate_limit_bucket.window_start <= now() - make_interval(secs => $2)
                    then now() else rate_limit_bucket.window_start end
     returning count,
       greatest(1, ceil(extract(epoch from (window_start + make_interval(secs => $2) - now()))))::int as retry_after`,
    [key, windowSeconds],
  );
  const row = rows[0] ?? { count: 1, retry_after: windowSeconds };
  return { allowed: row.count <= limit, count: row.count, retryAfterSeconds: row.retry_after };
}

export async function resetRateLimit(pool: Pool, key: string): Promise<void> {
  await pool.query('delete from rate_limit_bucket where key = $1', [key]);
}

/** Old windows are dead weight; called from the periodic maintenance task. */
export async function purgeExpiredRateLimits(pool: Pool, olderThanSeconds = 86_400): Promise<void> {
  await pool.query('delete from rate_limit_bucket where window_start < now() - make_interval(secs => $1)', [
    olderThanSeconds,
  ]);
}
