/** What the keeper needs of a job queue's runner (graphile-worker's `Runner`). */
export type RunningQueue = {
  /** Settles when the runner has stopped, for whatever reason. */
  promise: Promise<void>;
  stop(): Promise<void>;
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
 * The first start is the caller's: its error is thrown (a queue that cannot start at boot is a fault).
 */
export async function keepRunning(
  start: () => Promise<RunningQueue>,
  options: { log?: LogFn; firstMs?: number; maxMs?: number } = {},
): Promise<{ stop(): Promise<void> }> {
  const firstMs = options.firstMs ?? RESTART_FIRST_MS;
  const maxMs = options.maxMs ?? RESTART_MAX_MS;
  let stopped = false;
  let current: RunningQueue | undefined;
  let starting: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;

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
  };

  const restartAfter = (wait: number) => {
    timer = setTimeout(() => {
      timer = undefined;
      if (stopped) return;
      const next = Math.min(maxMs, wait * 2);
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
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await starting;
      await current?.stop();
    },
  };
}
