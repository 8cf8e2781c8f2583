import { Migrator } from '@mikro-orm/migrations';
import { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { entities } from './entities/index';
import { migrationsList } from './migrations/index';

// Stable keys for pg_advisory_lock: replicas that start together take turns.
const MIGRATION_LOCK_KEY = 727_274_001;
export const INITIAL_ADMIN_LOCK_KEY = 727_274_002;

export type Database = {
  orm: MikroORM;
  /** Plain pg pool for the paths where SQL is the point: COPY streams, batched inserts, bulk deletes. */
  pool: pg.Pool;
  isReady(): Promise<boolean>;
  close(): Promise<void>;
};

export async function openDatabase(options: {
  url: string;
  poolMax: number;
  log?: (message: string) => void;
}): Promise<Database> {
  // The ORM and the raw pool share the connection budget (DB_POOL_MAX).
  const ormPoolMax = Math.max(2, Math.floor(options.poolMax / 2));
  const rawPoolMax = Math.max(2, options.poolMax - ormPoolMax);
  const orm = await MikroORM.init({
    clientUrl: options.url,
    entities,
    extensions: [Migrator],
    migrations: { migrationsList, transactional: true, allOrNothing: true, snapshot: false },
    pool: { min: 0, max: ormPoolMax },
    debug: false,
    colors: false,
    logger: options.log ?? (() => {}),
    allowGlobalContext: false,
    // Dates stay Date objects; timestamps are timestamptz in UTC.
    timezone: 'Z',
  });
  const pool = new pg.Pool({ connectionString: options.url, max: rawPoolMax, idleTimeoutMillis: 30_000 });
  // An idle client that loses its server must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  return {
    orm,
    pool,
    async isReady() {
      try {
        await pool.query('select 1');
        return true;
      } catch {
        return false;
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

/** Apply pending migrations under an advisory lock, so concurrent replicas never race. */
export async function migrate(db: Database): Promise<void> {
  await withAdvisoryLock(db, MIGRATION_LOCK_KEY, () => db.orm.migrator.up());
}
