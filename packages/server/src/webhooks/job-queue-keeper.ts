/** What the keeper needs of a job queue's runner (graphile-worker's `Runner`). */
export type RunningQueue = {
  /** Settles when the runner has stopped, for whatever reason. */
  promise: Promise<void>;
  stop(): Promise<void>;
  /**
   * Calls `listener` when the runner's worker pool has shut itself down: it fetches no job any more, its
   * workers have ended and the jobs it held are handed back. graphile-worker's `promise` may never
   * settle after that (see keepRunning), so this counts as the runner's end too.
   */
  onPoolShutDown?(listener: () => void): void;
};

type LogFn = (level: 'warning', message: string) => void;

/** The first wait before a stopped job queue is started again, and the longest while starts fail. */
export const RESTART_FIRST_MS = 1_000;
export const RESTART_MAX_MS = 30_000;
/** A runner that ran this long before it stopped starts again after the first wait, not a longer one. */
const HEALTHY_RUN_MS = 60_000;

/**
 * Keeps a job queue running for as long as its worker is not stopped.
 *
 * graphile-worker stops its worker pool for good when it cannot record a batch of finished or failed
 * jobs ("queue is in an inconsistent state; aborting"): a connection PostgreSQL cut at that moment (a
 * restart, a failover, pg_terminate_backend) is enough. The process would then run no delivery and no
 * sale until it was restarted. The keeper starts a new runner after RESTART_FIRST_MS, doubling the wait
 * up to RESTART_MAX_MS while starts fail or runners keep stopping at once. The jobs the old runner held
 * are unlocked by its own shutdown or, failing that, by the worker's sweep; a job whose outcome was not
 * recorded runs again, which a delivery or a sale allows (at least once, same webhook-id).
 *
 * Its end is seen in either of two ways: the runner's promise settles, or its worker pool reports that
 * it has shut itself down (`onPoolShutDown`). The second is needed (issue 47): graphile-worker 0.18's
 * batcher of finished or failed jobs (main.js, `batch()`) never clears its back-pressure after a failed
 * batch, so every batch after that one (recorded or failed) takes one more off its count of pending
 * batches. The count drops below zero, and its release — awaited by the very shutdown that the failed
 * batch started, after the pool has stopped fetching and let go of its LISTEN connection — waits for a
 * zero that never comes. The runner then holds no job and no connection and never settles; the pool's "shutdown
 * complete" event, emitted just before that release, is what says it is done.
 *
 * `replace()` (the watchdog's, job-queue-watchdog.ts) retires the running runner — it is stopped in the
 * background, its workers finishing what they run — and starts a new one at once.
 *
 * The first start is the caller's: its error is thrown (a queue that cannot start at boot is a fault).
 */
export async function keepRunning(
  start: () => Promise<RunningQueue>,
  options: { log?: LogFn; firstMs?: number; maxMs?: number } = {},
): Promise<KeptQueue> {
  const firstMs = options.firstMs ?? RESTART_FIRST_MS;
  const maxMs = options.maxMs ?? RESTART_MAX_MS;
  let stopped = false;
  let current: RunningQueue | undefined;
  let starting: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  // Runners replaced while they still ran: their stops, awaited by ours.
  const retiring = new Set<Promise<void>>();

  // `soonWaitMs`: the wait before the next start should this runner stop before HEALTHY_RUN_MS.
  const watch = (runner: RunningQueue, soonWaitMs: number) => {
    current = runner;
    const startedAt = performance.now();
    const ended = () => {
      if (stopped || current !== runner) return;
      current = undefined;
      const wait = performance.now() - startedAt >= HEALTHY_RUN_MS ? firstMs : soonWaitMs;
      options.log?.('warning', `The job queue stopped; it starts again in ${Math.round(wait)} ms`);
      restartAfter(wait);
    };
    runner.promise.then(ended, ended);
    runner.onPoolShutDown?.(ended);
  };

  const restartAfter = (wait: number, next = Math.min(maxMs, wait * 2)) => {
    timer = setTimeout(() => {
      timer = undefined;
      if (stopped) return;
      starting = start().then(
        async (runner) => {
          if (stopped) await runner.stop();
          else watch(runner, next);
        },
        (err: unknown) => {
          if (stopped) return;
          options.log?.(
            'warning',
            `The job queue could not start again (${err instanceof Error ? err.message : String(err)}); next try in ${next} ms`,
          );
          restartAfter(next);
        },
      );
    }, wait);
    timer.unref();
  };

  watch(await start(), firstMs);
  return {
    replace() {
      const runner = current;
      // No runner (stopped, or one is about to start): nothing to replace.
      if (stopped || !runner) return false;
      current = undefined;
      const retired = runner.stop().catch(() => {});
      retiring.add(retired);
      void retired.then(() => retiring.delete(retired));
      restartAfter(0, firstMs);
      return true;
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await starting;
      await Promise.all([current?.stop(), ...retiring]);
    },
  };
}

export type KeptQueue = {
  /**
   * Stops the running runner in the background and starts a new one now; false when there is none to
   * replace (the keeper is stopped, or a new runner is on its way).
   */
  replace(): boolean;
  stop(): Promise<void>;
};
