import { afterEach, describe, expect, it, vi } from 'vitest';
import { keepRunning, type RunningQueue } from './job-queue-keeper';

afterEach(() => {
  vi.useRealTimers();
});

/** A runner whose end the test decides: `end()` as graphile-worker's pool does when it gives up. */
function fakeRunner() {
  let end!: (err?: Error) => void;
  const promise = new Promise<void>((resolve, reject) => {
    end = (err) => (err ? reject(err) : resolve());
  });
  const runner = {
    promise,
    stopped: false,
    end,
    async stop() {
      runner.stopped = true;
      end();
    },
  };
  return runner;
}

describe('keepRunning', () => {
  it('starts a new runner after the first wait when the running one stops by itself', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
    const runners: ReturnType<typeof fakeRunner>[] = [];
    const log = vi.fn();
    await keepRunning(
      async () => {
        const r = fakeRunner();
        runners.push(r);
        return r;
      },
      { log, firstMs: 1_000 },
    );
    expect(runners).toHaveLength(1);
    runners[0]?.end(new Error('Could not completeJobs; queue is in an inconsistent state; aborting.'));
    await vi.advanceTimersByTimeAsync(999);
    expect(runners).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(runners).toHaveLength(2);
    expect(log).toHaveBeenCalledWith('warning', expect.stringMatching(/job queue stopped/));
    // And again, for as long as the worker runs.
    runners[1]?.end();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(runners).toHaveLength(3);
  });

  it('waits longer while starts fail, and starts as soon as one succeeds', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
    const first = fakeRunner();
    const attempts: number[] = [];
    let up = false;
    await keepRunning(
      async () => {
        attempts.push(performance.now());
        if (attempts.length === 1) return first;
        if (!up) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
        return fakeRunner();
      },
      { firstMs: 1_000, maxMs: 4_000 },
    );
    first.end();
    await vi.advanceTimersByTimeAsync(1_000 + 2_000 + 4_000 + 4_000);
    const waits = attempts.slice(1).map((t, i) => t - (attempts[i] ?? 0));
    // 1 s after the stop, then 2 s, 4 s, and never more than the longest wait.
    expect(waits).toEqual([1_000, 2_000, 4_000, 4_000]);
    up = true;
    await vi.advanceTimersByTimeAsync(4_000);
    expect(attempts).toHaveLength(6);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(attempts).toHaveLength(6);
  });

  it('starts nothing after a stop, and stops the runner that is running', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
    const runners: ReturnType<typeof fakeRunner>[] = [];
    const keeper = await keepRunning(async () => {
      const r = fakeRunner();
      runners.push(r);
      return r;
    });
    await keeper.stop();
    expect(runners[0]?.stopped).toBe(true);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(runners).toHaveLength(1);
  });

  it('a stop during a restart stops the runner that start brings', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
    const first = fakeRunner();
    const second = fakeRunner();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let calls = 0;
    const keeper = await keepRunning(
      async (): Promise<RunningQueue> => {
        calls++;
        if (calls === 1) return first;
        await gate;
        return second;
      },
      { firstMs: 1_000 },
    );
    first.end();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toBe(2);
    const stopping = keeper.stop();
    release();
    await stopping;
    expect(second.stopped).toBe(true);
  });

  it('throws when the first start fails: a queue that cannot start at boot is a fault', async () => {
    await expect(
      keepRunning(async () => {
        throw new Error('no such task');
      }),
    ).rejects.toThrow('no such task');
  });
});

describe('keepRunning, a runner that never settles', () => {
  /** A runner whose promise never settles, whose pool reports its own shutdown (graphile-worker 0.18). */
  function hungRunner() {
    const listeners: (() => void)[] = [];
    return {
      promise: new Promise<void>(() => {}),
      stopped: false,
      async stop() {
        this.stopped = true;
      },
      onPoolShutDown(listener: () => void) {
        listeners.push(listener);
      },
      poolShutDown() {
        for (const l of listeners) l();
      },
    };
  }

  it('starts a new runner when the pool says it shut itself down, though the promise never settles', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
    const runners: ReturnType<typeof hungRunner>[] = [];
    const log = vi.fn();
    await keepRunning(
      async () => {
        const r = hungRunner();
        runners.push(r);
        return r;
      },
      { log, firstMs: 1_000 },
    );
    runners[0]?.poolShutDown();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runners).toHaveLength(2);
    expect(log).toHaveBeenCalledWith('warning', 'The job queue stopped; it starts again in 1000 ms');
    // Reported twice (its promise settling after all, say): one restart only.
    runners[0]?.poolShutDown();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(runners).toHaveLength(2);
  });

  it('replace() stops the running runner in the background and starts a new one at once', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
    const runners: ReturnType<typeof fakeRunner>[] = [];
    const keeper = await keepRunning(
      async () => {
        const r = fakeRunner();
        runners.push(r);
        return r;
      },
      { firstMs: 1_000 },
    );
    expect(keeper.replace()).toBe(true);
    // While the new one is on its way there is nothing to replace.
    expect(keeper.replace()).toBe(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(runners).toHaveLength(2);
    expect(runners[0]?.stopped).toBe(true);
    // The retired runner's end is not a stop of the queue: no further start.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runners).toHaveLength(2);
    await keeper.stop();
    expect(runners[1]?.stopped).toBe(true);
    expect(keeper.replace()).toBe(false);
  });
});
