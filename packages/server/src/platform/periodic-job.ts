// Periodic upkeep inside the app process (analytics retention and rollups, e-mail reports).

/** A task run after `firstMs`, then every `everyMs`, never twice at once; a failed run is reported and
 * the next one tries again (nothing depends on it meanwhile). */
export function periodicJob(task: () => Promise<unknown>, firstMs: number, everyMs: number) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let reportError: (err: unknown) => void = () => {};
  const run = () => {
    running ??= task()
      .catch((err: unknown) => reportError(err))
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  return {
    run,
    start(onError: (err: unknown) => void) {
      reportError = onError;
      timer = setTimeout(() => {
        void run();
        timer = setInterval(() => void run(), everyMs);
        timer.unref();
      }, firstMs);
      timer.unref();
    },
    async stop() {
      clearTimeout(timer);
      clearInterval(timer);
      await running;
    },
  };
}
