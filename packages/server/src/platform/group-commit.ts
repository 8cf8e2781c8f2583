// Group commit: callers queue items; up to `concurrency` flushers each take whatever is queued (up to
// `maxBatch`) and write it in one transaction. Every caller's promise settles only after the batch
// holding its item committed, so an acknowledged item is durable. Under light load a batch is one item
// and nobody waits for a timer; under heavy load batches grow by themselves while a flush is running.

export type GroupCommitOptions<T> = {
  /** Writes the whole batch in one transaction; resolves after the commit. */
  write(batch: T[]): Promise<void>;
  /** True when the error comes from the data of some row (then rows are retried one by one). */
  isRowError(err: unknown): boolean;
  /** True when retrying the same batch may succeed (deadlock, serialization failure). */
  isTransient(err: unknown): boolean;
  /** What a caller whose own row was refused receives. */
  rowRejected(err: unknown): Error;
  /**
   * What callers receive once the committer is closed, its queue is full, or their item waited in the
   * queue longer than `maxWaitMs`.
   */
  unavailable(reason: 'closed' | 'overloaded' | 'stalled'): Error;
  maxBatch: number;
  concurrency: number;
  /**
   * While a flush is running, another one starts only once this many items are queued (default 1: at
   * once). A batch statement has a fixed cost much larger than a row's, so a second writer taking the one
   * item that just arrived costs the database more than that item waiting for the running flush; items
   * left queued go with the next flush to finish. With no flush running, one starts at once.
   */
  minBatchWhileBusy?: number;
  /**
   * Start a flush after the current turn of the event loop (setImmediate) rather than on the first
   * push: the requests read from the sockets in the same turn go in one batch instead of the first one
   * alone. Costs one event-loop turn of latency, no timer.
   */
  gatherTurn?: boolean;
  /**
   * Items that share a key never go in the same batch (a later one waits for the next): for writes
   * whose rules need each item to see the one before it committed, not beside it in one statement.
   */
  keysOf?(item: T): readonly string[];
  /** Queued items beyond this are refused at once rather than growing memory without bound. */
  maxQueue: number;
  /**
   * An item still queued after this long is answered `unavailable('stalled')` and never written (issue 38):
   * behind a batch that waits for a lock, the queue must not add a second wait to the caller's budget.
   */
  maxWaitMs?: number;
  onBatch?(size: number, seconds: number): void;
};

type Pending<T> = { item: T; at: number; resolve(): void; reject(err: unknown): void };

const TRANSIENT_ATTEMPTS = 3;

export class GroupCommitter<T> {
  private queue: Pending<T>[] = [];
  private running = 0;
  private closed = false;
  private idleWaiters: (() => void)[] = [];
  private drainScheduled = false;
  private expiry: NodeJS.Timeout | undefined;

  constructor(private readonly options: GroupCommitOptions<T>) {}

  /** Resolves once `item` is committed; rejects when it was not stored. */
  push(item: T): Promise<void> {
    if (this.closed) return Promise.reject(this.options.unavailable('closed'));
    if (this.queue.length >= this.options.maxQueue) {
      return Promise.reject(this.options.unavailable('overloaded'));
    }
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ item, at: performance.now(), resolve, reject });
      this.armExpiry();
      if (!this.options.gatherTurn) this.drain();
      else if (!this.drainScheduled) {
        this.drainScheduled = true;
        setImmediate(() => {
          this.drainScheduled = false;
          this.drain();
        });
      }
    });
  }

  get pending(): number {
    return this.queue.length;
  }

  /** Refuses new items, then waits until everything already queued has been written. */
  async close(): Promise<void> {
    this.closed = true;
    this.drain();
    if (this.queue.length === 0 && this.running === 0) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  /** One timer for the oldest queued item (the queue stays in arrival order, so it is the head). */
  private armExpiry() {
    const maxWait = this.options.maxWaitMs;
    const head = this.queue[0];
    if (maxWait === undefined || this.expiry || !head) return;
    this.expiry = setTimeout(
      () => {
        this.expiry = undefined;
        const cutoff = performance.now() - maxWait;
        let expired = 0;
        while (expired < this.queue.length && (this.queue[expired]?.at ?? 0) <= cutoff) expired++;
        for (const p of this.queue.splice(0, expired)) p.reject(this.options.unavailable('stalled'));
        if (this.queue.length === 0 && this.running === 0) {
          for (const wake of this.idleWaiters.splice(0)) wake();
        }
        this.armExpiry();
      },
      Math.max(0, head.at + maxWait - performance.now()),
    );
    this.expiry.unref();
  }

  private drain() {
    const minWhileBusy = this.options.minBatchWhileBusy ?? 1;
    while (
      this.running < this.options.concurrency &&
      this.queue.length > 0 &&
      (this.running === 0 || this.queue.length >= minWhileBusy)
    ) {
      const batch = this.take();
      this.running += 1;
      let released = false;
      // The writer's place is handed on once its write has settled: before its callers are answered
      // when the write committed (see flush), at the latest when the flush is over.
      const release = () => {
        if (released) return;
        released = true;
        this.running -= 1;
        this.drain();
      };
      void this.flush(batch, release).finally(() => {
        release();
        if (this.queue.length === 0 && this.running === 0) {
          for (const wake of this.idleWaiters.splice(0)) wake();
        }
      });
    }
  }

  /** The next batch: queued items in order, up to maxBatch, none sharing a key with another. */
  private take(): Pending<T>[] {
    const { keysOf, maxBatch } = this.options;
    if (!keysOf) return this.queue.splice(0, maxBatch);
    const taken: Pending<T>[] = [];
    const left: Pending<T>[] = [];
    const used = new Set<string>();
    for (const p of this.queue) {
      const keys = keysOf(p.item);
      if (taken.length < maxBatch && keys.every((k) => !used.has(k))) {
        taken.push(p);
        for (const k of keys) used.add(k);
      } else {
        left.push(p);
      }
    }
    this.queue = left;
    return taken;
  }

  private async flush(batch: Pending<T>[], release: () => void): Promise<void> {
    const started = performance.now();
    let seconds: number | undefined;
    try {
      await this.writeWithRetry(batch.map((p) => p.item));
      seconds = (performance.now() - started) / 1000;
      // Committed: the next batch is sent first, then this one's callers are answered (on the next
      // turn of the event loop, once the next statement is on its way), so the database works on the
      // next batch while the answers of this one are written instead of waiting for them.
      release();
      await new Promise<void>((resolve) => setImmediate(resolve));
      for (const p of batch) p.resolve();
    } catch (err) {
      if (!this.options.isRowError(err)) {
        for (const p of batch) p.reject(err);
      } else if (batch.length === 1) {
        batch[0]?.reject(this.options.rowRejected(err));
      } else {
        await this.flushOneByOne(batch);
      }
    } finally {
      this.options.onBatch?.(batch.length, seconds ?? (performance.now() - started) / 1000);
    }
  }

  /** One bad row must not cost the others their place: each row becomes its own transaction. */
  private async flushOneByOne(batch: Pending<T>[]): Promise<void> {
    for (const p of batch) {
      try {
        await this.writeWithRetry([p.item]);
        p.resolve();
      } catch (err) {
        p.reject(this.options.isRowError(err) ? this.options.rowRejected(err) : err);
      }
    }
  }

  private async writeWithRetry(items: T[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.options.write(items);
        return;
      } catch (err) {
        if (attempt >= TRANSIENT_ATTEMPTS || !this.options.isTransient(err)) throw err;
      }
    }
  }
}
