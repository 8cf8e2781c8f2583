import type { Pool, PoolClient } from 'pg';
import { sha256Hex } from './sha256';

// Short write transactions on the raw pool, with as few round trips as the rules allow: BEGIN and the
// advisory locks go out as one simple-protocol query (the keys are integers computed here, so nothing
// user-supplied is ever spliced into SQL), then the caller's statements, then COMMIT.

/** A 64-bit advisory-lock key for a name (first 8 bytes of its SHA-256), as a decimal literal. */
export function lockKey(name: string): string {
  const hex = sha256Hex(name).slice(0, 16);
  return BigInt.asIntN(64, BigInt(`0x${hex}`)).toString();
}

export type Sql = Pick<PoolClient, 'query'>;

export async function inTransaction<T>(
  pool: Pool,
  lockNames: string[],
  work: (client: PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  try {
    // Sorted: two transactions that need the same locks always take them in the same order.
    const locks = [...new Set(lockNames)]
      .sort()
      .map((n) => `select pg_advisory_xact_lock(${lockKey(n)});`)
      .join(' ');
    await client.query(`begin; ${locks}`);
    const result = await work(client);
    await client.query('commit');
    return result;
  } catch (err) {
    await client.query('rollback').catch(() => {
      broken = true;
    });
    throw err;
  } finally {
    client.release(broken);
  }
}

/** PostgreSQL's unique_violation on the named constraint or index. */
export function isUniqueViolation(err: unknown, constraint: string): boolean {
  const e = err as { code?: string; constraint?: string } | null;
  return e?.code === '23505' && e.constraint === constraint;
}

/**
 * PostgreSQL's lock_not_available: a `lock table … nowait` (or a lock_timeout) found the lock held. The
 * kept analytics counts take their tables that way: a request that finds them busy sums the raw rows.
 */
export function isLockNotAvailable(err: unknown): boolean {
  return (err as { code?: string } | null)?.code === '55P03';
}
