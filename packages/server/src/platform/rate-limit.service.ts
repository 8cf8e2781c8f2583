import type { Pool } from 'pg';

export type RateLimitResult = { allowed: boolean; count: number; retryAfterSeconds: number };

type Waiter = { limit: number; resolve(result: RateLimitResult): void; reject(err: unknown): void };
/** Per pool, per window and key: the hits that arrived while a call for that key was running. */
const queued = new WeakMap<Pool, Map<string, Waiter[]>>();

/**
 * Counts one hit on `key` in a fixed window, in PostgreSQL so every replica sees the same count:
 * hit_rate_limit(), which resets an expired window and commits without waiting for the disk (ADR 051).
 * Hits on one key that arrive while this process's call for it runs go together in the next call
 * (issue 14): under load a busy key costs one round trip per batch, not per request, and waits for no
 * row lock of its own process. Each caller gets its own place in the count, as if it had come alone.
 */
export function hitRateLimit(
  pool: Pool,
  key: string,
  limit: number,
  windowSeconds: number,
): Promise<RateLimitResult> {
  let byKey = queued.get(pool);
  if (!byKey) {
    byKey = new Map();
    queued.set(pool, byKey);
  }
  const keys = byKey;
  const slot = `${windowSeconds}:${key}`;
  return new Promise((resolve, reject) => {
    const waiter = { limit, resolve, reject };
    const waiting = keys.get(slot);
    if (waiting) {
      waiting.push(waiter);
      return;
    }
    void countHits(pool, keys, slot, key, windowSeconds, [waiter]);
  });
}

/** Sends `first`, then whatever queued meanwhile, until nothing waits on the key. */
async function countHits(
  pool: Pool,
  keys: Map<string, Waiter[]>,
  slot: string,
  key: string,
  windowSeconds: number,
  first: Waiter[],
): Promise<void> {
  for (let batch = first; batch.length > 0; batch = keys.get(slot) ?? []) {
    keys.set(slot, []);
    try {
      const { rows } = await pool.query<{ hits: number; retry_after: number }>({
        name: 'hit_rate_limit',
        text: 'select hits, retry_after from hit_rate_limit($1, $2, $3)',
        values: [key, windowSeconds, batch.length],
      });
      const row = rows[0] ?? { hits: batch.length, retry_after: windowSeconds };
      batch.forEach((w, i) => {
        const count = row.hits - batch.length + i + 1;
        w.resolve({ allowed: count <= w.limit, count, retryAfterSeconds: row.retry_after });
      });
    } catch (err) {
      for (const w of batch) w.reject(err);
    }
  }
  keys.delete(slot);
}

/**
 * The hits counted on `key` in its current window, without adding one, and the seconds until that window
 * ends (0 when there is none).
 */
export async function peekRateLimit(
  pool: Pool,
  key: string,
  windowSeconds: number,
): Promise<{ count: number; retryAfterSeconds: number }> {
  const { rows } = await pool.query<{ count: number; retry_after: number }>(
    `select count,
       greatest(1, ceil(extract(epoch from (window_start + make_interval(secs => $2) - now()))))::int as retry_after
     from rate_limit_bucket where key = $1 and window_start > now() - make_interval(secs => $2)`,
    [key, windowSeconds],
  );
  return { count: rows[0]?.count ?? 0, retryAfterSeconds: rows[0]?.retry_after ?? 0 };
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

/** Takes back one hit on `key` (a reserved attempt that turned out not to count). */
export async function refundRateLimit(pool: Pool, key: string): Promise<void> {
  await pool.query('update rate_limit_bucket set count = count - 1 where key = $1 and count > 0', [key]);
}
