import type { Pool } from 'pg';

export type RateLimitResult = { allowed: boolean; count: number; retryAfterSeconds: number };

/**
 * Counts one hit on `key` in a fixed window, in PostgreSQL so every replica sees the same count: one
 * call of hit_rate_limit(), which resets an expired window and commits without waiting for the disk
 * (ADR 051).
 */
export async function hitRateLimit(
  pool: Pool,
  key: string,
  limit: number,
  windowSeconds: number,
): Promise<RateLimitResult> {
  const { rows } = await pool.query<{ hits: number; retry_after: number }>({
    name: 'hit_rate_limit',
    text: 'select hits, retry_after from hit_rate_limit($1, $2)',
    values: [key, windowSeconds],
  });
  const row = rows[0] ?? { hits: 1, retry_after: windowSeconds };
  return { allowed: row.hits <= limit, count: row.hits, retryAfterSeconds: row.retry_after };
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
