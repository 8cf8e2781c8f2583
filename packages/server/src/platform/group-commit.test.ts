import { describe, expect, it } from 'vitest';
import { type GroupCommitOptions, GroupCommitter } from './group-commit';

class RowError extends Error {}
class Transient extends Error {}

type Deferred = { resolve(): void; reject(err: unknown): void; items: number[] };

/** Options every committer in these tests shares; each test supplies its own `write`. */
const base: Omit<GroupCommitOptions<number>, 'write'> = {
  isRowError: (err) => err instanceof RowError,
  isTransient: (err) => err instanceof Transient,
  rowRejected: () => new Error('row refused'),
  unavailable: (reason) => new Error(reason),
  maxBatch: 100,
  concurrency: 1,
  maxQueue: 1000,
};

/** A committer whose writes stay open until the test settles them, so batching can be observed. */
function harness(overrides: Partial<GroupCommitOptions<number>> = {}) {
  const writes: Deferred[] = [];
  const committer = new GroupCommitter<number>({
    ...base,
    write: (items) =>
      new Promise<void>((resolve, reject) => {
        writes.push({ resolve, reject, items: [...items] });
      }),
    ...overrides,
  });
  return { committer, writes };
}

const tick = () => new Promise((r) => setTimeout(r, 0));
/** One turn of the event loop and its timers: a gathered batch has started after it. */
const turn = () => new Promise((r) => setImmediate(r)).then(tick);

function track(p: Promise<void>) {
  const state = { settled: false, error: undefined as unknown };
  p.then(
    () => {
      state.settled = true;
    },
    (err: unknown) => {
      state.settled = true;
      state.error = err;
    },
  );
  return state;
}

describe('GroupCommitter', () => {
  it('never puts two items that share a key in one batch; the later one goes in the next, in order', async () => {
    // Keys by parity: 1 and 3 share "odd", 2 and 4 share "even".
    const { committer, writes } = harness({ keysOf: (n) => [n % 2 ? 'odd' : 'even'] });
    const all = [1, 2, 3, 4, 5].map((n) => track(committer.push(n)));
    await tick();
    expect(writes.map((w) => w.items)).toEqual([[1]]);
    writes[0]?.resolve();
    await tick();
    expect(writes.map((w) => w.items)).toEqual([[1], [2, 3]]);
    writes[1]?.resolve();
    await tick();
    expect(writes.map((w) => w.items)).toEqual([[1], [2, 3], [4, 5]]);
    writes[2]?.resolve();
    await tick();
    expect(all.every((p) => p.settled && p.error === undefined)).toBe(true);
  });

  it('writes alone when idle and groups everything that arrives during a write', async () => {
    const { committer, writes } = harness();
    const first = track(committer.push(1));
    const rest = [2, 3, 4].map((n) => track(committer.push(n)));
    await tick();
    expect(writes.map((w) => w.items)).toEqual([[1]]);
    writes[0]?.resolve();
    await tick();
    expect(first.settled).toBe(true);
    expect(writes.map((w) => w.items)).toEqual([[1], [2, 3, 4]]);
    expect(rest.every((r) => !r.settled)).toBe(true);
    writes[1]?.resolve();
    await tick();
    expect(rest.every((r) => r.settled && r.error === undefined)).toBe(true);
  });

  it('with gatherTurn, takes every item pushed in the same event-loop turn in one batch', async () => {
    const { committer, writes } = harness({ gatherTurn: true });
    const all = [1, 2, 3].map((n) => track(committer.push(n)));
    expect(writes).toEqual([]);
    await turn();
    expect(writes.map((w) => w.items)).toEqual([[1, 2, 3]]);
    expect(all.some((p) => p.settled)).toBe(false);
    writes[0]?.resolve();
    await tick();
    expect(all.every((p) => p.settled && p.error === undefined)).toBe(true);
  });

  it('with minBatchWhileBusy, starts another write only for that many queued items; fewer wait', async () => {
    const { committer, writes } = harness({ concurrency: 2, minBatchWhileBusy: 3 });
    const first = track(committer.push(1));
    await tick();
    expect(writes.map((w) => w.items)).toEqual([[1]]);
    const waiting = [2, 3].map((n) => track(committer.push(n)));
    await tick();
    // Two queued, below three: they wait for the running write instead of a second writer.
    expect(writes.map((w) => w.items)).toEqual([[1]]);
    writes[0]?.resolve();
    await tick();
    expect(first.settled).toBe(true);
    expect(writes.map((w) => w.items)).toEqual([[1], [2, 3]]);
    expect(waiting.some((p) => p.settled)).toBe(false);
    // While [2, 3] is written, three more items reach the threshold: a second writer takes them.
    const more = [4, 5, 6].map((n) => track(committer.push(n)));
    await tick();
    expect(writes.map((w) => w.items)).toEqual([[1], [2, 3], [4, 5, 6]]);
    writes[1]?.resolve();
    writes[2]?.resolve();
    await tick();
    expect([...waiting, ...more].every((p) => p.settled && p.error === undefined)).toBe(true);
  });

  it('close() writes items whose gathered batch has not started yet', async () => {
    const { committer, writes } = harness({ gatherTurn: true });
    const a = track(committer.push(1));
    const closed = committer.close();
    expect(writes.map((w) => w.items)).toEqual([[1]]);
    writes[0]?.resolve();
    await closed;
    await turn();
    expect(a.settled && a.error === undefined).toBe(true);
    expect(writes).toHaveLength(1);
  });

  it('sends the next batch before it answers the callers of the one that committed', async () => {
    const { committer, writes } = harness();
    const first = track(committer.push(1));
    const second = track(committer.push(2));
    await tick();
    expect(writes.map((w) => w.items)).toEqual([[1]]);
    writes[0]?.resolve();
    // Settle the promise chain of the commit, but not the next turn of the event loop.
    for (let i = 0; i < 10; i++) await Promise.resolve();
    expect(writes.map((w) => w.items)).toEqual([[1], [2]]);
    expect(first.settled).toBe(false);
    await turn();
    expect(first).toEqual({ settled: true, error: undefined });
    expect(second.settled).toBe(false);
    writes[1]?.resolve();
    await turn();
    expect(second).toEqual({ settled: true, error: undefined });
  });

  it('answers nobody before their batch is committed', async () => {
    const { committer, writes } = harness();
    const a = track(committer.push(1));
    await tick();
    await tick();
    expect(a.settled).toBe(false);
    writes[0]?.resolve();
    await tick();
    expect(a.settled).toBe(true);
  });

  it('caps a batch at maxBatch and runs up to `concurrency` writes at once', async () => {
    const { committer, writes } = harness({ maxBatch: 2, concurrency: 2 });
    for (const n of [1, 2, 3, 4, 5]) void committer.push(n);
    await tick();
    expect(writes.map((w) => w.items)).toEqual([[1], [2]]);
    writes[0]?.resolve();
    await tick();
    expect(writes.map((w) => w.items)).toEqual([[1], [2], [3, 4]]);
    writes[1]?.resolve();
    await tick();
    expect(writes.map((w) => w.items)).toEqual([[1], [2], [3, 4], [5]]);
  });

  it('stores the good rows of a batch and refuses only the bad one', async () => {
    const stored: number[] = [];
    const committer = new GroupCommitter<number>({
      ...base,
      write: async (items) => {
        if (items.includes(13)) throw new RowError('bad row');
        stored.push(...items);
      },
    });
    const results = await Promise.allSettled([11, 12, 13, 14].map((n) => committer.push(n)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect((results[2] as PromiseRejectedResult).reason.message).toBe('row refused');
    expect(stored.sort()).toEqual([11, 12, 14]);
  });

  it('fails the whole batch on a database failure, and retries transient ones', async () => {
    const { committer, writes } = harness();
    void committer.push(1);
    const batch = [2, 3].map((n) => track(committer.push(n)));
    writes[0]?.resolve();
    await tick();
    expect(writes[1]?.items).toEqual([2, 3]);
    writes[1]?.reject(new Error('connection lost'));
    await tick();
    expect(batch.map((b) => (b.error as Error | undefined)?.message)).toEqual([
      'connection lost',
      'connection lost',
    ]);
    expect(writes).toHaveLength(2);

    let attempts = 0;
    const flaky = new GroupCommitter<number>({
      ...base,
      write: async () => {
        attempts += 1;
        if (attempts < 3) throw new Transient('deadlock detected');
      },
    });
    await expect(flaky.push(1)).resolves.toBeUndefined();
    expect(attempts).toBe(3);
  });

  it('close() writes everything queued, then refuses new items', async () => {
    const { committer, writes } = harness();
    const queued = [1, 2, 3].map((n) => track(committer.push(n)));
    const closed = track(committer.close());
    await tick();
    expect(closed.settled).toBe(false);
    writes[0]?.resolve();
    await tick();
    writes[1]?.resolve();
    await tick();
    expect(queued.every((q) => q.settled && q.error === undefined)).toBe(true);
    expect(closed.settled).toBe(true);
    await expect(committer.push(4)).rejects.toThrow('closed');
  });

  it('refuses at once when the queue is full instead of growing without bound', async () => {
    const { committer } = harness({ maxQueue: 2 });
    void committer.push(1); // taken by the flusher at once
    void committer.push(2);
    void committer.push(3);
    await expect(committer.push(4)).rejects.toThrow('overloaded');
  });

  it('answers an item still queued after maxWaitMs "stalled" and never writes it; the one being written waits for its write', async () => {
    const { committer, writes } = harness({ maxWaitMs: 50 });
    const first = track(committer.push(1));
    await tick();
    const queued = [2, 3].map((n) => track(committer.push(n)));
    await new Promise((r) => setTimeout(r, 120));
    expect(queued.map((q) => (q.error as Error | undefined)?.message)).toEqual(['stalled', 'stalled']);
    // The batch that was already written is the database's to answer.
    expect(first.settled).toBe(false);
    writes[0]?.resolve();
    await committer.close();
    expect(first).toEqual({ settled: true, error: undefined });
    expect(writes.map((w) => w.items)).toEqual([[1]]);
  });
});
