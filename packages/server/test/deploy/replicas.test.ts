import { connect } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_LIMITS } from '../../src/admin/admin-auth.service';
import { migrationsList } from '../../src/db/migrations/index';
import { waitFor } from '../support/raw-http';
import { type ServerProcess, startServerProcess } from '../support/server-process';
import { createTestDatabase, type TestDatabase } from '../support/test-db';

// What `docker compose up --scale app=N` relies on, with two real server processes (different ports)
// on one fresh database: they start and migrate at the same moment, and nothing a user depends on
// lives in one process's memory.

const ADMIN = { username: 'ops', password: 'replica-password-123' };

let db: TestDatabase;
let a: ServerProcess;
let b: ServerProcess;
let sql: pg.Client;

beforeAll(async () => {
  db = await createTestDatabase();
  const env = {
    DATABASE_URL: db.url,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    DB_POOL_MAX: '4',
  };
  // Started together: both take the migration lock and both find no admin yet.
  [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
  sql = new pg.Client({ connectionString: db.url });
  await sql.connect();
}, 120_000);

afterAll(async () => {
  await sql?.end();
  await Promise.all([a?.stop('SIGKILL'), b?.stop('SIGKILL')]);
  await db?.drop();
});

async function login(server: ServerProcess, body: object) {
  return fetch(`${server.url}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe('two app processes on one database', () => {
  it('both started; the migrations ran once each and one first admin exists', async () => {
    const { rows } = await sql.query<{ name: string }>('select name from mikro_orm_migrations order by name');
    expect(rows.map((r) => r.name)).toEqual(migrationsList.map((m) => m.name).sort());
    const admins = await sql.query('select username from admin_user');
    expect(admins.rows).toEqual([{ username: ADMIN.username }]);
    expect(a.output()).not.toMatch(/failed to start|error/i);
    expect(b.output()).not.toMatch(/failed to start|error/i);
  });

  it('a session made on one process works on the other, and a logout there ends it everywhere', async () => {
    const res = await login(a, ADMIN);
    expect(res.status).toBe(200);
    const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect(cookie).toMatch(/^uf_admin=/);

    const me = await fetch(`${b.url}/api/admin/me`, { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ username: ADMIN.username });

    expect((await fetch(`${b.url}/api/admin/logout`, { method: 'POST', headers: { cookie } })).status).toBe(
      200,
    );
    expect((await fetch(`${a.url}/api/admin/me`, { headers: { cookie } })).status).toBe(401);
  });

  it('a sign-in limit counted on one process is enforced by the other', async () => {
    const wrong = { username: `nobody-${Date.now()}`, password: 'not-the-password' };
    for (let i = 0; i < LOGIN_LIMITS.perAccountAndClient; i++) {
      expect((await login(i % 2 === 0 ? a : b, wrong)).status).toBe(401);
    }
    for (const server of [a, b]) {
      const res = await login(server, wrong);
      expect(res.status).toBe(429);
      expect(await res.json()).toMatchObject({ error: 'rate_limited' });
    }
  });

  it('SIGTERM: stops accepting, finishes the request in flight, then exits 0', async () => {
    const body = JSON.stringify(ADMIN);
    const { port } = new URL(a.url);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    let response = '';
    socket.on('data', (d) => {
      response += d;
    });
    const closed = new Promise((r) => socket.once('close', r));
    // The request has begun (headers and half the body) when the signal arrives.
    socket.write(
      `POST /api/admin/login HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
    );
    await new Promise((r) => setTimeout(r, 200));
    const exitCode = a.stop('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));

    // Draining (ADR 056): a new request is refused with the app's 503 and Retry-After, then the listener
    // closes and new connections are refused.
    const during = await fetch(`${a.url}/healthz`).then(
      async (r) => ({ status: r.status, retryAfter: r.headers.get('retry-after'), body: await r.json() }),
      () => 'refused' as const,
    );
    if (during !== 'refused') {
      expect(during).toMatchObject({ status: 503, body: { error: 'service_unavailable' } });
      expect(during.retryAfter).toMatch(/^\d+$/);
    }
    await waitFor(
      () =>
        fetch(`${a.url}/healthz`).then(
          () => false,
          () => true,
        ),
      10_000,
      'the listener to close',
    );
    expect(a.child.exitCode).toBeNull();

    // Like a browser, the client keeps its connection open after the answer: the server must close
    // it once the answer is sent, not wait for the keep-alive timeout (that would end in exit 1).
    socket.write(body.slice(10));
    await closed;
    expect(response, a.output()).toMatch(/^HTTP\/1\.1 200 /);
    expect(await exitCode).toBe(0);
    // Its work reached the database before the pool closed.
    const audit = await sql.query("select count(*)::int as n from audit_log where action = 'admin.sign_in'");
    expect(audit.rows[0].n).toBe(2);

    // The other replica carries on alone.
    expect((await fetch(`${b.url}/readyz`)).status).toBe(200);
    expect(await b.stop('SIGTERM')).toBe(0);
  });
});
