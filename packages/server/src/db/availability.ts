// Whether the database can take work right now (issue 22, ADR 056). A request whose database is away —
// the embedded PostgreSQL restarting, a connection refused, dropped or timed out, no pooled connection
// free within the budget, a statement cut by statement_timeout — is answered 503 with Retry-After, never
// 500: nothing is wrong with the request, and the same request later will work.

/** SQLSTATEs that mean "not now" rather than "not this": the server's state, not the statement's. */
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01', // admin_shutdown: terminating connection due to administrator command
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: the database system is starting up / in recovery
  '57014', // query_canceled: statement_timeout
  '55P03', // lock_not_available: lock_timeout
  '53300', // too_many_connections
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);

const UNAVAILABLE_NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

const UNAVAILABLE_MESSAGES = [
  'timeout exceeded when trying to connect', // pg-pool: no connection within connectionTimeoutMillis
  'Connection terminated', // pg: the server went away mid-query
  'Query read timeout', // pg: query_timeout (a black-holed connection)
  'is not queryable', // pg: a client that already lost its connection
  'Cannot use a pool after calling end', // the pool is closing (shutdown)
];

/** True when `err` (or anything in its cause chain) says the database is unreachable or busy. */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, message, name } = e as { code?: unknown; message?: unknown; name?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_NODE_CODES.has(code)))
      return true;
    if (name === 'ConnectionException') return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((m) => message.includes(m))) return true;
    // AggregateError (a connect to several addresses that all failed)
    const inner = (e as { errors?: unknown[] }).errors;
    if (Array.isArray(inner) && inner.some((x) => isDatabaseUnavailable(x))) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** Seconds a client is asked to wait before trying again (Retry-After of every 503). */
export const RETRY_AFTER_SECONDS = 2;

/** A writer's record: its last failure and success, and the start (performance.now()) of each write running. */
type WriterState = { lastFailureAt: number; lastSuccessAt: number; running: Set<{ startedAt: number }> };

/**
 * What /readyz and /healthz report about the database besides a live query: whether writes have been
 * failing for want of a database (a write that then succeeds clears it) or are stalled, per writer — the
 * group-committed website leads, partner leads and analytics events each on their own, so a locked leads
 * table shows while analytics writes still succeed (issue 38) — and the embedded PostgreSQL's supervisor
 * state when there is one.
 */
export class DatabaseHealth {
  private readonly writers = new Map<string, WriterState>();
  embeddedState: 'running' | 'restarting' | 'failed' | undefined;
  /**
   * How long a queued group-committed write may wait for its batch before it is answered 503 (undefined:
   * no limit). Set by openDatabase from the request budget, so that the wait in the queue plus the batch's
   * own lock wait stays within DB_STATEMENT_TIMEOUT_SECONDS (ADR 066).
   */
  queueWaitMs: number | undefined;
  /** A write running longer than this is stalled (a normal batch takes milliseconds). */
  stallMs = 2_000;

  constructor(private readonly failingWindowMs = 30_000) {}

  private writer(name: string): WriterState {
    let state = this.writers.get(name);
    if (!state) {
      state = { lastFailureAt: 0, lastSuccessAt: 0, running: new Set() };
      this.writers.set(name, state);
    }
    return state;
  }

  /** A write of `writer` starts; the function returned records how it ended. */
  writeStarted(writer: string): (ok: boolean, err?: unknown) => void {
    const state = this.writer(writer);
    const token = { startedAt: performance.now() };
    state.running.add(token);
    return (ok, err) => {
      state.running.delete(token);
      if (ok) state.lastSuccessAt = Date.now();
      else if (isDatabaseUnavailable(err)) state.lastFailureAt = Date.now();
    };
  }

  /**
   * Why writes are not going through, naming the writers — "database writes failing: website leads"
   * (the last write failed for want of a database, recently, none succeeded since) or "database writes
   * stalled: …" (one has been running longer than `stallMs`) — or undefined when they are.
   */
  get writeProblem(): string | undefined {
    const now = Date.now();
    const failing: string[] = [];
    const stalled: string[] = [];
    const stallStart = performance.now() - this.stallMs;
    for (const [name, w] of this.writers) {
      if (w.lastFailureAt > w.lastSuccessAt && now - w.lastFailureAt < this.failingWindowMs)
        failing.push(name);
      else if ([...w.running].some((write) => write.startedAt < stallStart)) stalled.push(name);
    }
    if (failing.length) return `database writes failing: ${failing.join(', ')}`;
    if (stalled.length) return `database writes stalled: ${stalled.join(', ')}`;
    return undefined;
  }
}

const healthByPool = new WeakMap<object, DatabaseHealth>();

/** The health record of a pool (one per database the process uses). */
export function healthOf(pool: object): DatabaseHealth {
  let health = healthByPool.get(pool);
  if (!health) {
    health = new DatabaseHealth();
    healthByPool.set(pool, health);
  }
  return health;
}
