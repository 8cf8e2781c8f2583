import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServerProcess } from './support/server-process';
import { createTestDatabase, type TestDatabase } from './support/test-db';

// What operators read in `docker compose logs app`: one JSON object per line, and every line about a
// request carries that request's id, so one request's story can be pulled out of interleaved replicas.

type LogLine = {
  level: number;
  msg: string;
  reqId?: string;
  req?: { url?: string };
  res?: { statusCode?: number };
};

let db: TestDatabase;
let server: ServerProcess;

beforeAll(async () => {
  db = await createTestDatabase();
  server = await startServerProcess({ DATABASE_URL: db.url, LOG_LEVEL: 'info' });
}, 60_000);

afterAll(async () => {
  await server?.stop('SIGKILL');
  await db?.drop();
});

describe('request logs', () => {
  it('are JSON lines: one access line per request, each with its own id', async () => {
    const missing = '11111111-2222-4333-8444-555555555555';
    expect((await fetch(`${server.url}/api/leads/${missing}`)).status).toBe(404);
    expect(
      (
        await fetch(`${server.url}/api/admin/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie: 'uf_admin=secret-cookie-value' },
          body: JSON.stringify({ username: 'nobody', password: 'wrong-password' }),
        })
      ).status,
    ).toBe(401);
    // A static file is logged at debug only: the operator's output is not buried by asset requests.
    expect((await fetch(`${server.url}/favicon.svg`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 200));

    const lines = server
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as LogLine);
    // One access line per request (ADR 051), with its id, method, URL, status and time.
    const access = lines.filter((l) => l.msg === 'request completed');
    const notFound = access.find((l) => l.req?.url === `/api/leads/${missing}`);
    expect(notFound?.reqId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(notFound?.res?.statusCode).toBe(404);
    expect(access.find((l) => l.req?.url === '/api/admin/login')?.res?.statusCode).toBe(401);
    expect(lines.filter((l) => l.msg === 'incoming request')).toEqual([]);
    const ids = access.map((l) => l.reqId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(lines.filter((l) => l.reqId === notFound?.reqId)).toHaveLength(1);
    expect(access.find((l) => l.req?.url === '/favicon.svg')).toBeUndefined();
    expect(server.output()).not.toContain('secret-cookie-value');
    expect(server.output()).not.toContain('wrong-password');
  });
});
