import { afterEach, describe, expect, it, vi } from 'vitest';
import { createOutboxWaker, SendPacer } from './webhook-worker';

afterEach(() => {
  vi.useRealTimers();
});

describe('SendPacer', () => {
  it('lets every attempt start at once while the process is quiet', () => {
    const pacer = new SendPacer(() => false, 10);
    for (let i = 0; i < 100; i++) expect(pacer.admit()).toBeUndefined();
  });

  it('spaces the starts while the process is busy, and each waiter gets its own start time', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
    const pacer = new SendPacer(() => true, 10); // one start per 100 ms
    const started: number[] = [];
    const t0 = performance.now();
    const attempts = Array.from({ length: 4 }, async () => {
      await pacer.admit();
      started.push(Math.round(performance.now() - t0));
    });
    await vi.advanceTimersByTimeAsync(1_000);
    await Promise.all(attempts);
    expect(started).toEqual([0, 100, 200, 300]);
  });

  it('starts at once again when the surge has passed', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
    let busy = true;
    const pacer = new SendPacer(() => busy, 10);
    expect(pacer.admit()).toBeUndefined();
    expect(pacer.admit()).toBeInstanceOf(Promise);
    busy = false;
    expect(pacer.admit()).toBeUndefined();
  });
});

describe('createOutboxWaker', () => {
  it('adds a job at once when idle, and one more (at least 50 ms later) for all calls made during it', async () => {
    const pending: (() => void)[] = [];
    const added: number[] = [];
    const sql: string[] = [];
    const pool = {
      query: (text: string) =>
        new Promise<void>((resolve) => {
          added.push(performance.now());
          sql.push(text);
          pending.push(resolve);
        }),
    };
    const { wake } = createOutboxWaker(pool as never);
    wake();
    expect(added).toHaveLength(1);
    expect(sql[0]).toContain("add_job('webhook_fanout'");
    // Three commits while the first add runs: one more add, after it.
    wake();
    wake();
    wake();
    pending.shift()?.();
    await vi.waitFor(() => expect(added).toHaveLength(2));
    expect((added[1] ?? 0) - (added[0] ?? 0)).toBeGreaterThanOrEqual(45);
    pending.shift()?.();
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(added).toHaveLength(2);
    // Idle again: the next commit adds at once.
    wake();
    expect(added).toHaveLength(3);
    pending.shift()?.();
  });

  it('reports a failed add and keeps working', async () => {
    const errors: unknown[] = [];
    let fail = true;
    const pool = { query: async () => (fail ? Promise.reject(new Error('down')) : undefined) };
    const { wake } = createOutboxWaker(pool as never, (err) => errors.push(err));
    wake();
    await vi.waitFor(() => expect(errors).toHaveLength(1));
    fail = false;
    wake();
    await new Promise((resolve) => setImmediate(resolve));
    expect(errors).toHaveLength(1);
  });
});

it('fans out in this process, with no job, once a local worker is there', async () => {
  const queries: string[] = [];
  const waker = createOutboxWaker({ query: async (sql: string) => queries.push(sql) } as never);
  let fanOuts = 0;
  waker.fanOutLocally(async () => {
    fanOuts += 1;
  });
  waker.wake();
  await vi.waitFor(() => expect(fanOuts).toBe(1));
  expect(queries).toEqual([]);
});
