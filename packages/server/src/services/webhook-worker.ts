import { Logger, type Runner, run, runMigrations } from 'graphile-worker';
import pg from 'pg';
import { ATTEMPT_LEASE_SECONDS, type DeliveryOptions, runDeliveryAttempt } from './webhook-delivery';

// The job queue behind webhook deliveries (ADR 062): graphile-worker, a kept PostgreSQL queue. Jobs are
// added by SQL (webhook_queue(), inside the transactions that store leads); each process runs up to
// WEBHOOKS_CONCURRENCY of them at once, woken by LISTEN/NOTIFY as jobs arrive (the poll is only a
// fallback), and a job is locked by the one process running it. Its schema is installed by migrate()
// in both database modes (embedded or external), before the app's own migrations.

export const DELIVER_TASK = 'webhook_deliver';
/** How often each process looks for work a crashed process left behind. */
const SWEEP_MS = 10_000;

const STOP_WAIT_MS = 5_000;

async function bounded(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    work.catch(() => {}),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
}

type LogFn = (level: string, message: string) => void;

const loggerOf = (log: LogFn | undefined) =>
  new Logger(() => (level, message) => {
    // Its advice to size the pool at the concurrency is for long jobs holding a connection; ours hold one
    // only for their short statements (ADR 062).
    if ((level === 'error' || level === 'warning') && !message.includes('maxPoolSize')) log?.(level, message);
  });

/** Creates or upgrades the `graphile_worker` schema (idempotent; graphile-worker takes its own lock). */
export async function installJobQueue(connectionString: string, log?: LogFn): Promise<void> {
  await runMigrations({ connectionString, logger: loggerOf(log) });
}

// Work a killed process left: graphile-worker frees a dead worker's jobs only after 4 hours, but no
// delivery attempt runs longer than the lease, so a job locked longer belongs to a process that is gone.
// Pending deliveries whose job is missing (a restored backup holds no jobs) get one again.
const SWEEP_SQL = `
  select graphile_worker.force_unlock_workers(array(
    select distinct locked_by from graphile_worker.jobs
    where locked_by is not null and task_identifier = '${DELIVER_TASK}'
      and locked_at < now() - make_interval(secs => $1 * 2)));`;
const REQUEUE_SQL = `
  select webhook_queue(array(
    select d.id from webhook_delivery d
    where d.state = 'pending' and d.next_attempt_at < now() - make_interval(secs => $1 * 2)
      and (d.attempt_started_at is null or d.attempt_started_at < now() - make_interval(secs => $1))
      and d.id::text not in (
        select payload->>'id' from graphile_worker._private_jobs where payload->>'id' is not null)
    limit 1000))`;

export type WebhookWorker = { stop(): Promise<void>; sweep(): Promise<void> };

export async function startWebhookWorker(options: {
  connectionString: string;
  concurrency: number;
  delivery: DeliveryOptions;
  /** The app's database limits (ADR 056), so a database that stops answering cannot hang the worker. */
  timeouts?: { connectMs: number; statementMs: number };
  log?: LogFn;
}): Promise<WebhookWorker> {
  const t = options.timeouts;
  // Its own pool: the queue's fetches and the attempts' short statements never wait behind lead writes.
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: Math.min(20, Math.max(4, Math.ceil(options.concurrency / 4) + 2)),
    ...(t
      ? {
          connectionTimeoutMillis: t.connectMs,
          statement_timeout: t.statementMs,
          query_timeout: t.statementMs + 5_000,
          keepAlive: true,
        }
      : {}),
    // The queue's bookkeeping and the delivery log commit without waiting for the disk (ADR 062): a crash
    // may forget the last moment's outcomes, and those deliveries are attempted again (same webhook-id) —
    // at least once either way. WAL order is kept, so a retry's job is never lost while the job it
    // replaces is marked done. The leads' transactions, which queue the deliveries, stay synchronous.
    options: '-c synchronous_commit=off',
  });
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const runner: Runner = await run({
    pgPool: pool,
    concurrency: options.concurrency,
    pollInterval: 1_000,
    noHandleSignals: true,
    // Jobs fetched a batch at a time and completions written together: a few statements per batch rather
    // than two per job (graphile-worker's "batching").
    preset: {
      worker: {
        localQueue: { size: options.concurrency },
        completeJobBatchDelay: 0,
        failJobBatchDelay: 0,
      },
    },
    logger: loggerOf(options.log),
    taskList: {
      [DELIVER_TASK]: async (payload) => {
        await runDeliveryAttempt(pool, (payload as { id: string }).id, options.delivery);
      },
    },
  });
  const sweep = async () => {
    try {
      await pool.query(SWEEP_SQL, [ATTEMPT_LEASE_SECONDS]);
      await pool.query(REQUEUE_SQL, [ATTEMPT_LEASE_SECONDS]);
    } catch (err) {
      options.delivery.onError?.(err);
    }
  };
  const timer = setInterval(() => void sweep(), SWEEP_MS);
  timer.unref();
  return {
    sweep,
    // Attempts in flight get a few seconds to finish; a stop never waits longer (a hanging receiver or a
    // database that stopped answering must not hold the shutdown): what was cut short is taken again by
    // another process once its lease expires.
    async stop() {
      clearInterval(timer);
      await bounded(runner.stop(), STOP_WAIT_MS);
      await bounded(pool.end(), STOP_WAIT_MS);
    },
  };
}
