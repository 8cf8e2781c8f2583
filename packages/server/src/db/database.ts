import { Migrator } from '@mikro-orm/migrations';
import { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { installJobQueue } from '../webhooks/webhook-worker';
import { type DatabaseHealth, healthOf } from './availability';
import { entities } from './entities/index';
import { migrationsList } from './migrations/index';

// Stable keys for pg_advisory_lock: replicas that start together take turns.
const MIGRATION_LOCK_KEY = 727_274_001;
export const INITIAL_ADMIN_LOCK_KEY = 727_274_002;

/** Limits for the app's pools (ADR 056); the CLI's long-running commands (backup, restore) use none. */
export type DatabaseTimeouts = {
  /** Waiting for a pooled connection, or for a new one to connect: then 503. */
  connectMs: number;
  /** PostgreSQL's statement_timeout; the client gives up a little later (query_timeout: a silent server). */
  statementMs: number;
};

export type Database = {
  /** Connection URL (migrations open their own connections without the request timeouts). */
  url: string;
  timeouts: DatabaseTimeouts | undefined;
  /** Whether writes have been failing, and the embedded PostgreSQL's state (/readyz, /healthz). */
  health: DatabaseHealth;
  orm: MikroORM;
  /** Plain pg pool for the paths where SQL is the point: COPY streams, batched inserts, bulk deletes. */
  pool: pg.Pool;
  /** The database answered a one-row read within `withinMs` (never waits longer). */
  isReady(withinMs?: number): Promise<boolean>;
  close(): Promise<void>;
};

/**
 * How a request's DB_STATEMENT_TIMEOUT_SECONDS is shared out (issue 38, ADR 066). A lock waited for ends
 * at `lockMs` (PostgreSQL's lock_timeout, 55P03 → 503); a group-committed write waits at most
 * `queueWaitMs` in its queue behind a batch that waits for a lock, then its own batch waits at most
 * `lockMs`: both together stay within the budget, with a fifth of it left for the pool and the statement.
 * A write running longer than `stallMs` makes /readyz say writes are stalled.
 */
export function requestBudget(statementMs: number) {
  const lockMs = Math.max(50, Math.floor(statementMs * 0.4));
  return { lockMs, queueWaitMs: lockMs, stallMs: Math.min(2_000, Math.floor(lockMs / 2)) };
}

export async function openDatabase(options: {
  url: string;
  poolMax: number;
  log?: (message: string) => void;
  timeouts?: DatabaseTimeouts;
}): Promise<Database> {
  const t = options.timeouts;
  const budget = t ? requestBudget(t.statementMs) : undefined;
  // pg options for both pools: connectionTimeoutMillis bounds the wait for a free pooled connection too.
  const limits = t
    ? {
        connectionTimeoutMillis: t.connectMs,
        statement_timeout: t.statementMs,
        lock_timeout: budget?.lockMs,
        query_timeout: t.statementMs + 5_000,
        // A dead peer (black-holed path) is found by keepalive probes, not only by query_timeout.
        keepAlive: true,
      }
    : {};
  // The ORM and the raw pool share the connection budget (DB_POOL_MAX).
  const ormPoolMax = Math.max(2, Math.floor(options.poolMax / 2));
  const rawPoolMax = Math.max(2, options.poolMax - ormPoolMax);
  const orm = await MikroORM.init({
    clientUrl: options.url,
    entities,
    extensions: [Migrator],
    migrations: { migrationsList, transactional: true, allOrNothing: true, snapshot: false },
    pool: { min: 0, max: ormPoolMax },
    driverOptions: limits,
    debug: false,
    colors: false,
    logger: options.log ?? (() => {}),
    allowGlobalContext: false,
    // Dates stay Date objects; timestamps are timestamptz in UTC.
    timezone: 'Z',
  });
  const pool = new pg.Pool({
    connectionString: options.url,
    max: rawPoolMax,
    idleTimeoutMillis: 30_000,
    ...limits,
  });
  // An idle client that loses its server must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const health = healthOf(pool);
  if (budget) {
    health.queueWaitMs = budget.queueWaitMs;
    health.stallMs = budget.stallMs;
  }
  return {
    url: options.url,
    timeouts: t,
    health,
    orm,
    pool,
    async isReady(withinMs = 1_000) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), withinMs);
      });
      const answered = pool
        // A table of the app's own, not just `select 1`: a session that outlived its database (a
        // connection racing DROP DATABASE) still answers `select 1`, but cannot read a table.
        .query({
          text: 'select 1 from mikro_orm_migrations limit 1',
          query_timeout: withinMs,
        } as pg.QueryConfig)
        .then(() => true as const)
        .catch(() => false as const);
      try {
        return await Promise.race([answered, late]);
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      await pool.end();
      await orm.close(true);
    },
  };
}

/**
 * Runs `fn` while holding a PostgreSQL advisory lock, so the same step in other processes on this
 * database waits its turn. The lock lives on one pooled connection; `fn` may use any other.
 */
export async function withAdvisoryLock<T>(db: Database, key: number, fn: () => Promise<T>): Promise<T> {
  const client = await db.pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [key]);
    try {
      return await fn();
    } finally {
      await client.query('select pg_advisory_unlock($1)', [key]);
    }
  } finally {
    client.release();
  }
}

/**
 * Apply pending migrations under an advisory lock, so concurrent replicas never race. A migration may
 * run longer than a request's statement_timeout (an index on a big table): with timeouts, it runs on
 * connections of its own that have none.
 */
export async function migrate(db: Database): Promise<void> {
  if (!db.timeouts) {
    await withAdvisoryLock(db, MIGRATION_LOCK_KEY, async () => {
      // The job queue's schema first (ADR 062): the app's webhook functions queue jobs into it.
      await installJobQueue(db.url);
      await db.orm.migrator.up();
    });
    return;
  }
  const own = await openDatabase({ url: db.url, poolMax: 4 });
  try {
    await migrate(own);
  } finally {
    await own.close();
  }
}

/**
 * Lifts the request timeouts from one checked-out connection, for a statement that legitimately runs
 * long: a CSV export's COPY (paced by the client's download) or a logical backup. Release the client
 * with `release(true)` afterwards, so the connection never goes back to the pool without its limits.
 */
export async function withoutTimeouts(client: pg.PoolClient): Promise<void> {
  await client.query('set statement_timeout = 0; set lock_timeout = 0');
  (
    client as unknown as { connectionParameters: { query_timeout?: number } }
  ).connectionParameters.query_timeout = undefined;
}
