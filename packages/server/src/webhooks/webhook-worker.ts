import { Logger, run, runMigrations } from 'graphile-worker';
import pg from 'pg';
import { SELL_TASK } from '../buyers/buyer-worker';
import { isDatabaseUnavailable } from '../db/availability';
import { keepRunning } from './job-queue-keeper';
import { CHECK_MS, oldestDueSeconds, STALL_MS, StallDetector } from './job-queue-watchdog';
import { ATTEMPT_LEASE_SECONDS, type DeliveryOptions, runDeliveryAttempt } from './webhook-delivery';

// The job queue behind webhook deliveries (ADR 062): graphile-worker, a kept PostgreSQL queue. The
// statements that store leads write their messages to an outbox (webhook_enqueue()); a fan-out job turns
// them into deliveries, each with its own job (webhook_queue()); each process runs up to
// WEBHOOKS_CONCURRENCY of them at once, woken by LISTEN/NOTIFY as jobs arrive (the poll is only a
// fallback), and a job is locked by the one process running it. Its schema is installed by migrate()
// in both database modes (embedded or external), before the app's own migrations.

export const DELIVER_TASK = 'webhook_deliver';
/** Turns the outbox's rows (one per batch of leads) into deliveries (one fan-out at a time). */
export const FANOUT_TASK = 'webhook_fanout';
/** Outbox rows fanned out per statement (a row is a batch of up to 100 leads). */
const FANOUT_LIMIT = 50;
/** While busy: outbox rows per fan-out, and the least time between two. */
const BUSY_FANOUT_EVENTS = 1;
const BUSY_FANOUT_MS = 1_000;
/** The least time between two fan-out jobs queued by a process that runs no worker. */
const WAKE_JOB_MS = 50;
/**
 * How often the worker looks for outbox rows nobody fanned out: what a surge left, a wake lost to a
 * crash between a batch's commit and its fan-out, rows a restored backup holds without their job.
 */
const OUTBOX_TICK_MS = 1_000;
/**
 * Requests in flight, averaged over time (platform/serving-load.ts), at which this process counts as
 * busy serving: delivery attempts then start at BUSY_STARTS_PER_SECOND until the surge passes (ADR 062,
 * "The write path's share").
 */
export const BUSY_REQUESTS = 16;
const BUSY_STARTS_PER_SECOND = 100;
/** How often each process looks for work a crashed process left behind. */
const SWEEP_MS = 10_000;

/**
 * At a stop, how long attempts in flight may take to finish before they are cut short (recorded as failed
 * with their retry queued, like any attempt without an answer), and how long the job queue then gets to
 * hand its jobs back: within SHUTDOWN_TIMEOUT_SECONDS' default of 10 s.
 */
const STOP_ATTEMPTS_MS = 3_000;
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
  new Logger(() => (level, message, meta) => {
    // Its advice to size the pool at the concurrency is for long jobs holding a connection; ours hold one
    // only for their short statements (ADR 062).
    if ((level !== 'error' && level !== 'warning') || message.includes('maxPoolSize')) return;
    // A connection lost (a database restart, a failover, a network blip) is routine: the queue listens
    // and fetches again by itself, so it is a warning, not an error (issue 38) — its message says what.
    // So is a batch of outcomes it could not record for that reason: its worker pool stops then, and the
    // keeper starts another (job-queue-keeper.ts).
    const m = meta as { error?: unknown; fatalError?: unknown } | undefined;
    const routine = level === 'error' && isDatabaseUnavailable(m?.error ?? m?.fatalError);
    log?.(routine ? 'warning' : level, message);
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
    where locked_by is not null and task_identifier in ('${DELIVER_TASK}', '${FANOUT_TASK}', '${SELL_TASK}')
      and locked_at < now() - make_interval(secs => $1 * 2)));`;
const REQUEUE_SQL = `
  select webhook_queue(array(
    select d.id from webhook_delivery d
    where d.state = 'pending' and d.next_attempt_at < now() - make_interval(secs => $1 * 2)
      and (d.attempt_started_at is null or d.attempt_started_at < now() - make_interval(secs => $1))
      and d.id::text not in (
        select payload->>'id' from graphile_worker._private_jobs where payload->>'id' is not null)
    limit 1000))`;

/**
 * Paces the start of delivery attempts while the process is busy serving requests: then at most
 * BUSY_STARTS_PER_SECOND attempts start, so sending never takes the machine from the lead routes during
 * a surge, yet the queue still moves and an attempt that hangs holds up no other (it is the starts that
 * are spaced, not the attempts in flight). While the process is quiet an attempt starts at once.
 */
export class SendPacer {
  private nextAt = 0;

  constructor(
    private readonly busy: () => boolean,
    private readonly startsPerSecond = BUSY_STARTS_PER_SECOND,
  ) {}

  /** Resolves when the caller may start its attempt. */
  admit(): Promise<void> | undefined {
    if (!this.busy()) return undefined;
    const now = performance.now();
    // Each caller takes the next free start time, so waiters never wake together to compete.
    const at = Math.max(now, this.nextAt);
    this.nextAt = at + 1000 / this.startsPerSecond;
    if (at <= now) return undefined;
    return new Promise((resolve) => setTimeout(resolve, at - now));
  }
}

/**
 * Runs `step` once per call, never two at once: calls made while it runs get one more run after it.
 * `stop()` ends that: no run starts any more, and it resolves once the running one has ended.
 */
function coalesced(step: () => Promise<unknown>, onError: (err: unknown) => void) {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  const loop = async () => {
    do {
      again = false;
      try {
        await step();
      } catch (err) {
        onError(err);
      }
    } while (again && !stopped);
    running = undefined;
  };
  const run = () => {
    if (stopped) return;
    if (running) again = true;
    else running = loop();
  };
  run.stop = async () => {
    stopped = true;
    await running;
  };
  return run;
}

export type OutboxWaker = {
  /** A batch wrote outbox rows and committed: have them fanned out. Never throws. */
  wake(): void;
  /** This process runs a worker: fan out here, with no job in between. */
  fanOutLocally(fanOut: () => Promise<void>): void;
  /**
   * At a stop, before the pools close: later wakes do nothing (the rows stay in the outbox for the next
   * fan-out, here after a restart or in another replica), and a fan-out running now finishes first.
   */
  stop(): Promise<void>;
};

/**
 * Has the outbox fanned out after a batch that wrote to it has committed (the group-committed lead
 * writers: a job added inside their statement cost the route a fifth of its speed). In a process that
 * runs a worker, the worker fans out directly; otherwise a fan-out job is queued for any replica's
 * worker (graphile-worker wakes them with NOTIFY). Calls made while one runs are served by one more run
 * after it, so every commit is followed by a fan-out and a surge of batches costs a handful. A failure
 * is reported; the rows stay for the next fan-out or the outbox tick.
 */
export function createOutboxWaker(
  pool: Pick<pg.Pool, 'query'>,
  onError: (err: unknown) => void = () => {},
): OutboxWaker {
  let local: (() => Promise<void>) | undefined;
  let lastAdd = Number.NEGATIVE_INFINITY;
  // A job for the other replicas at most every WAKE_JOB_MS: the batches committed meanwhile share it.
  const addJob = async () => {
    const wait = lastAdd + WAKE_JOB_MS - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    lastAdd = performance.now();
    await pool.query(`select graphile_worker.add_job('${FANOUT_TASK}', '{}'::json)`);
  };
  const wake = coalesced(() => local?.() ?? addJob(), onError);
  return {
    wake,
    fanOutLocally(fanOut) {
      local = fanOut;
    },
    stop: wake.stop,
  };
}

export type WebhookWorker = {
  stop(): Promise<void>;
  /**
   * The watchdog's view of the job queue: why it is not ready (a stall, while it lasts) and the oldest
   * due job's age in seconds (undefined until its first check).
   */
  queueHealth(): { problem: string | undefined; oldestDueSeconds: number | undefined };
  sweep(): Promise<void>;
  /** Fans out what the outbox holds (paced while the process is busy). */
  fanOut(): Promise<void>;
};

export async function startWebhookWorker(options: {
  connectionString: string;
  concurrency: number;
  delivery: DeliveryOptions;
  /** The app's database limits (ADR 056), so a database that stops answering cannot hang the worker. */
  timeouts?: { connectMs: number; statementMs: number };
  /** True while the process is busy serving requests (delivery attempts are then paced). */
  busy?: () => boolean;
  log?: LogFn;
  /** Other jobs the same queue runs (lead buyers' sales, ADR 069), and their part of the sweep. */
  tasks?: (
    pool: pg.Pool,
    signal: AbortSignal,
    /** Resolves when an outbound request may start (paced while the process is busy serving). */
    admit: () => Promise<void> | undefined,
  ) => Record<string, (payload: unknown) => Promise<void>>;
  sweeps?: ((pool: pg.Pool) => Promise<void>)[];
  /** The watchdog's thresholds (job-queue-watchdog.ts); tests shorten them. */
  watchdog?: { stallMs?: number; checkMs?: number };
}): Promise<WebhookWorker> {
  const busy = options.busy ?? (() => false);
  const pacer = new SendPacer(busy);
  // Aborted at a stop, after STOP_ATTEMPTS_MS: attempts still waiting for an answer are cut short.
  const stopping = new AbortController();
  const delivery: DeliveryOptions = { ...options.delivery, signal: stopping.signal };
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
  let lastBusyFanOut = 0;
  let stopped = false;
  // What the outbox holds, oldest first, each statement its own transaction (rows deleted with their
  // deliveries and jobs written). While the process is busy serving, one small statement at most every
  // BUSY_FANOUT_MS: attempts are paced then anyway, and the fan-out's inserts would take the machine
  // from the lead routes; the rest waits for the surge to pass (the outbox tick). -1: another fan-out
  // is running, and it looks at the outbox again after each commit.
  const fanOut = async () => {
    for (;;) {
      if (stopping.signal.aborted || stopped) return;
      if (busy()) {
        const wait = lastBusyFanOut + BUSY_FANOUT_MS - performance.now();
        if (wait > 0) return;
        lastBusyFanOut = performance.now();
        await pool.query('select webhook_fanout($1)', [BUSY_FANOUT_EVENTS]);
        return;
      }
      const { rows } = await pool.query<{ n: number }>('select webhook_fanout($1) as n', [FANOUT_LIMIT]);
      const n = rows[0]?.n ?? -1;
      if (n < 0) return;
      if (n < FANOUT_LIMIT && (await pool.query('select 1 from webhook_event limit 1')).rowCount === 0)
        return;
    }
  };
  const taskList: Record<string, (payload: unknown) => Promise<void>> = {
    [DELIVER_TASK]: async (payload) => {
      await pacer.admit();
      await runDeliveryAttempt(pool, (payload as { id: string }).id, delivery);
    },
    [FANOUT_TASK]: () => fanOut(),
    // Other tasks (a sale's posts to buyers) take their starts from the same pacer.
    ...options.tasks?.(pool, stopping.signal, () => pacer.admit()),
  };
  const stallMs = options.watchdog?.stallMs ?? STALL_MS;
  const stalls = new StallDetector(performance.now(), stallMs);
  // Kept running: graphile-worker stops its pool for good when a connection is cut as it records
  // outcomes, and the keeper starts another — also when that pool's end never settles its promise.
  const queue = await keepRunning(
    async () => {
      const runner = await run({
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
        taskList,
      });
      stalls.runnerStarted(performance.now());
      // Each runner has its own emitter: a retired runner's last jobs still count as jobs started.
      runner.events.on('job:start', () => stalls.jobStarted(performance.now()));
      return {
        promise: runner.promise,
        stop: () => runner.stop(),
        onPoolShutDown(listener) {
          runner.events.once('pool:gracefulShutdown:complete', listener);
          runner.events.once('pool:gracefulShutdown:error', listener);
        },
      };
    },
    { log: options.log },
  );
  // The watchdog: one query every CHECK_MS, never two at once; a stall has the runner replaced.
  const watch = coalesced(
    async () => {
      const age = await oldestDueSeconds(pool, Object.keys(taskList)).catch(() => undefined);
      if (stopped || !stalls.observe(performance.now(), age)) return;
      if (queue.replace()) {
        stalls.runnerStarted(performance.now());
        options.log?.(
          'warning',
          `The job queue stalled (${stalls.problem}); its runner is replaced by a new one`,
        );
      }
    },
    () => {},
  );
  const watchdog = setInterval(watch, options.watchdog?.checkMs ?? CHECK_MS);
  watchdog.unref();
  const sweep = async () => {
    try {
      await pool.query(SWEEP_SQL, [ATTEMPT_LEASE_SECONDS]);
      await pool.query(REQUEUE_SQL, [ATTEMPT_LEASE_SECONDS]);
      for (const more of options.sweeps ?? []) await more(pool);
    } catch (err) {
      options.delivery.onError?.(err);
    }
  };
  const timer = setInterval(() => void sweep(), SWEEP_MS);
  timer.unref();
  // The outbox tick: what a surge left in the outbox, and rows whose wake was lost, are fanned out.
  const tickFanOut = coalesced(fanOut, (err) => options.delivery.onError?.(err));
  const tick = setInterval(tickFanOut, OUTBOX_TICK_MS);
  tick.unref();
  return {
    sweep,
    fanOut,
    queueHealth: () => ({ problem: stalls.problem, oldestDueSeconds: stalls.oldestDueSeconds }),
    // In order, before the pool closes (issue 38): no fan-out starts and the running one ends; the job
    // queue takes no new job and hands back those it fetched (unlocked, for another process or the next
    // start); attempts in flight get STOP_ATTEMPTS_MS to finish, then are cut short and recorded like an
    // attempt without an answer (retried, same webhook-id). A stop never waits longer than that plus
    // STOP_WAIT_MS: a database that stopped answering must not hold the shutdown.
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearInterval(tick);
      clearInterval(watchdog);
      await Promise.all([tickFanOut.stop(), watch.stop()]);
      const cutShort = setTimeout(() => stopping.abort(), STOP_ATTEMPTS_MS);
      await bounded(queue.stop(), STOP_ATTEMPTS_MS + STOP_WAIT_MS);
      clearTimeout(cutShort);
      await bounded(pool.end(), STOP_WAIT_MS);
    },
  };
}
