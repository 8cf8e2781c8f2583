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

/**
 * What /readyz and /healthz report about the database besides a live query: whether writes have been
 * failing for want of a database (a write that then succeeds clears it), and the embedded PostgreSQL's
 * supervisor state when there is one.
 */
export class DatabaseHealth {
  private lastFailureAt = 0;
  private lastSuccessAt = 0;
  embeddedState: 'running' | 'restarting' | 'failed' | undefined;

  constructor(private readonly failingWindowMs = 30_000) {}

  recordWrite(ok: boolean, err?: unknown) {
    if (ok) this.lastSuccessAt = Date.now();
    else if (isDatabaseUnavailable(err)) this.lastFailureAt = Date.now();
  }

  /** The last write failed for want of a database, recently, and none has succeeded since. */
  get writesFailing(): boolean {
    return this.lastFailureAt > this.lastSuccessAt && Date.now() - this.lastFailureAt < this.failingWindowMs;
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
