import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { leadBody } from './support/fixtures';
import { rawRequest } from './support/raw-http';
import { createTestDatabase, type TestDatabase } from './support/test-db';

// Issue 22, findings 6 and 8. TRACE on any /api/trpc/* path answered 500 and logged an error stack;
// PUT/DELETE/OPTIONS/PATCH there answered 415, not 405 with Allow (ADR 052). And tRPC batching was open:
// one request could carry 50 lead submissions, around every per-request limit.

let db: TestDatabase;
let app: Awaited<ReturnType<typeof buildApp>>;
let base: string;
const logLines: { level: number; msg: string }[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  // The app's own logger, at info, into memory: client mistakes must not be logged as errors.
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
      done();
    },
  });
  app = await buildApp(loadConfig({ LOG_LEVEL: 'info', DB_POOL_MAX: '6' }), {
    databaseUrl: db.url,
    logStream: { write: (line: string) => sink.write(line) },
  });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
});

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE'];

describe('unsupported methods on /api paths', () => {
  it('answer 405 with Allow in the app error format on tRPC paths (queries GET, mutations POST)', async () => {
    const cases: [string, string][] = [
      ['/api/trpc/lead.submit', 'POST'],
      ['/api/trpc/analytics.track', 'POST'],
      ['/api/trpc/admin.leads.remove', 'POST'],
      ['/api/trpc/lead.byId', 'GET'],
      ['/api/trpc/admin.leads.stats', 'GET'],
    ];
    for (const [path, allowed] of cases) {
      for (const method of METHODS.filter((m) => m !== allowed)) {
        const res = await rawRequest(base, { method, path });
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(res.headers.allow, `${method} ${path}`).toBe(allowed);
        expect(JSON.parse(res.body)).toMatchObject({ error: 'method_not_allowed' });
      }
    }
  });

  it('answer 405 with Allow on the REST paths, TRACE included', async () => {
    const cases: [string, string][] = [
      ['/api/submit-search', 'POST'],
      ['/api/analytics/track', 'POST'],
      ['/api/admin/backup', 'POST'],
      ['/api/admin/stats', 'GET'],
      ['/api/leads/11111111-2222-4333-8444-555555555555', 'GET'],
    ];
    for (const [path, allowed] of cases) {
      for (const method of ['PUT', 'OPTIONS', 'TRACE', allowed === 'GET' ? 'POST' : 'GET']) {
        const res = await rawRequest(base, { method, path });
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(res.headers.allow, `${method} ${path}`).toContain(allowed);
        expect(JSON.parse(res.body)).toMatchObject({ error: 'method_not_allowed' });
      }
    }
  });

  it('never logs a client mistake at error level', async () => {
    await rawRequest(base, { method: 'TRACE', path: '/api/trpc/lead.submit' });
    await rawRequest(base, { method: 'TRACE', path: '/api/trpc/no.such.procedure' });
    await rawRequest(base, { method: 'OPTIONS', path: '/api/trpc/lead.byId' });
    app.flushLogs();
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.filter((l) => l.level >= 50)).toEqual([]);
  });
});

describe('tRPC batching', () => {
  it('is refused: one request carries one call', async () => {
    const inputs = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [String(i), leadBody()]));
    const path = `/api/trpc/${Array.from({ length: 50 }, () => 'lead.submit').join(',')}?batch=1`;
    const res = await rawRequest(base, { method: 'POST', path, body: JSON.stringify(inputs) });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    const { rows } = await app.db.pool.query<{ n: number }>('select count(*)::int as n from website_lead');
    expect(rows[0]?.n).toBe(0);
  });

  it('a single call (what the web app sends: httpLink) still works', async () => {
    const res = await rawRequest(base, {
      method: 'POST',
      path: '/api/trpc/lead.submit',
      body: JSON.stringify(leadBody()),
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).result.data.id).toMatch(/^[0-9a-f-]{36}$/);
  });
});
