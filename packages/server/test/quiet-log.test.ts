import { connect } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { leadBody } from './support/fixtures';
import { LEVEL, memoryLog } from './support/log-lines';
import { waitFor } from './support/raw-http';
import { startServerProcess } from './support/server-process';
import { createTestDatabase, type TestDatabase } from './support/test-db';
import { postVisitorLeads } from './support/visitor';
import { type Receiver, startReceiver } from './support/webhook-receiver';

// Issue 38, finding 4: routine connection loss logged 81 error lines in 20 s (the job queue's "Error with
// notify listener", "UNLISTEN"); a graceful stop with a delivery backlog logged six errors from the job
// queue ("Releasing local queue failed…", "Deactivation failed") and "Cannot use a pool after calling end
// on the pool" from the fan-out loop, leaving 39 jobs locked; a client that aborted its request was logged
// as "database unavailable". Now each is a warning that says what happened, and a stop stops the fan-out
// and the workers before the pools close: no error line, no job left locked.

let db: TestDatabase;
let rx: Receiver;

beforeAll(async () => {
  db = await createTestDatabase();
  rx = await startReceiver();
});
afterAll(async () => {
  await rx?.close();
  await db?.drop();
});

/** An endpoint for every new lead at the receiver, written straight into the table. */
async function addEndpoint(path: string) {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    await client.query(
      `insert into webhook_endpoint (id, url, events, secret)
       values (gen_random_uuid(), $1, '{lead.created}', 'whsec_' || encode(decode(md5(random()::text) || md5(random()::text), 'hex'), 'base64'))`,
      [`${rx.base}${path}`],
    );
  } finally {
    await client.end();
  }
}
const query = async <T extends pg.QueryResultRow>(sql: string) => {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
};
/** Error-level lines of a server's JSON log output, and any line that is not JSON (a stack, a crash). */
const errorLines = (output: string) =>
  output
    .split('\n')
    .filter(Boolean)
    .filter((line) => {
      try {
        return (JSON.parse(line) as { level?: number }).level === undefined
          ? false
          : (JSON.parse(line) as { level: number }).level >= LEVEL.error;
      } catch {
        return /error/i.test(line);
      }
    });

describe('a graceful stop with a delivery backlog', () => {
  it('stops the fan-out and the workers before the pools close: no error line, no job left locked, exit 0', async () => {
    // Slow enough that attempts are in flight and jobs queued when SIGTERM comes.
    rx.on('/backlog', (_req, res) => setTimeout(() => res.end('ok'), 150));
    const server = await startServerProcess({
      DATABASE_URL: db.url,
      LOG_LEVEL: 'info',
      WEBHOOKS_ALLOW_PRIVATE_URLS: 'true',
      // The visitors come through a proxy on loopback, each from an address of its own (issue 33).
      TRUST_PROXY: '127.0.0.1',
    });
    try {
      await addEndpoint('/backlog');
      // As visitors send them (issue 33): only accepted leads are delivered.
      const submitted = await postVisitorLeads(server.url, 300);
      expect(submitted.filter((s) => s === 200).length).toBeGreaterThan(250);
      await rx.waitFor(() => rx.at('/backlog').length >= 20, 30_000);
      const code = await server.stop('SIGTERM');
      expect(code).toBe(0);
      const delivered = rx.at('/backlog').length;
      const [{ pending } = { pending: 0 }] = await query<{ pending: number }>(
        "select count(*)::int as pending from webhook_delivery where state = 'pending'",
      );
      const locked = await query<{ id: string }>(
        'select id::text from graphile_worker._private_jobs where locked_at is not null',
      );
      console.info(
        `[quiet-log] graceful stop: ${delivered} delivered before the stop, ${pending} left pending, ${locked.length} jobs locked, ${errorLines(server.output()).length} error lines`,
      );
      // A backlog was there to stop in the middle of.
      expect(pending).toBeGreaterThan(0);
      expect(errorLines(server.output())).toEqual([]);
      expect(locked).toEqual([]);
    } finally {
      await server.stop('SIGKILL');
    }
  }, 120_000);
});

describe('routine connection loss and client aborts', () => {
  const log = memoryLog();
  let app: Awaited<ReturnType<typeof buildApp>>;
  let base: string;

  beforeAll(async () => {
    app = await buildApp(
      loadConfig({ LOG_LEVEL: 'info', DB_POOL_MAX: '6', WEBHOOKS_ALLOW_PRIVATE_URLS: 'true' }),
      {
        databaseUrl: db.url,
        logStream: log.stream,
      },
    );
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('every connection of the server cut by PostgreSQL: warnings saying so, no error line, and it recovers', async () => {
    log.lines.length = 0;
    // The job queue's notify listener holds a connection of its own: wait until it is there.
    await waitFor(
      async () =>
        (
          await query<{ n: number }>(
            "select count(*)::int as n from pg_stat_activity where query ilike 'LISTEN%'",
          )
        )[0]?.n !== 0,
      10_000,
      'the job queue to listen',
    );
    await query(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    // Work goes on: the pools reconnect, the job queue listens again.
    await waitFor(
      async () =>
        (
          await fetch(`${base}/api/submit-search`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(leadBody()),
          })
        ).status === 200,
      20_000,
      'a lead to be stored again',
    );
    await waitFor(
      () => log.lines.some((l) => l.level === LEVEL.warn && /notify listener|connection/i.test(l.msg)),
      20_000,
      'the connection loss to be logged',
    );
    expect(log.errors()).toEqual([]);
  });

  it('a client that aborts its request mid-body: one warning saying so, not "database unavailable"', async () => {
    log.lines.length = 0;
    const socket = connect(Number(new URL(base).port), '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    socket.write(
      'POST /api/submit-search HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"firstName":',
    );
    await new Promise((r) => setTimeout(r, 100));
    socket.destroy();
    await waitFor(() => log.lines.some((l) => /aborted/i.test(l.msg)), 10_000, 'the abort to be logged');
    const abort = log.lines.find((l) => /aborted/i.test(l.msg));
    expect(abort?.level).toBe(LEVEL.warn);
    expect(log.lines.filter((l) => l.msg === 'database unavailable')).toEqual([]);
    expect(log.errors()).toEqual([]);
  });
});
