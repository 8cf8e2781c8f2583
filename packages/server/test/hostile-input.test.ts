import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { restRoutesOf } from '../src/rest/rest-routes';
import { createAppRouter } from '../src/trpc/router';
import { seedAdmin, signIn } from './support/admin';
import { startTestApp, type TestApp } from './support/test-app';

const restRoutes = restRoutesOf(createAppRouter({ supportEmail: 'support@example.com' }));

// Issue 13: no input reaches a 5xx. Every row of the REST table, the streamed admin routes and every
// tRPC procedure get a set of hostile inputs, signed out and signed in; every answer must be a 4xx (or
// a 2xx for an input that happens to be acceptable) with an error document, never a 5xx.

let t: TestApp;
let cookies: Record<string, string>;

beforeAll(async () => {
  // Limits high enough that the walk measures validation, not the rate limiters.
  t = await startTestApp({ PARTNER_RATE_LIMIT_PER_MINUTE: '100000' });
  await seedAdmin(t.app);
  cookies = await signIn(t.app);
});
afterAll(async () => {
  await t?.close();
});

/** Hostile values as JSON text (built by hand: a 10,000-deep array is too deep for JSON.stringify here). */
const HOSTILE_VALUES: Record<string, string> = {
  nul: JSON.stringify('a\u0000b'),
  loneSurrogate: '"\\uD800"',
  control: JSON.stringify('bell\u0007'),
  long: JSON.stringify('x'.repeat(100_000)),
  deep: `${'['.repeat(10_000)}"x"${']'.repeat(10_000)}`,
  number: '12345',
  object: '{"nested":{"value":"x"}}',
  array: '["a","b"]',
  null: 'null',
};

const FIELDS = [
  'firstName',
  'lastName',
  'streetAddress',
  'zipCode',
  'email',
  'phone',
  'birthMonth',
  'birthDay',
  'birthYear',
  'consentGiven',
  'pageUrl',
  'beneficiary',
  'eventType',
  'page',
  'referrer',
  'sessionId',
  'username',
  'password',
  'ids',
  'id',
  'city',
  'state',
  'trustedFormUrl',
];

/** Raw bodies as a client could send them: [content type, payload]. */
const RAW_BODIES: [string, string][] = [
  ['application/json', ''],
  ['application/json', '{'],
  ['application/json', '{"email":"a@b.co","email":"\\u0000"}'],
  ['application/json', '"just a string"'],
  ['application/json', '[1,2,3]'],
  ['application/json', `{"firstName":"${'y'.repeat(70_000)}"}`], // over the 64 KB body limit
  ['text/plain', 'hello'],
  ['application/x-www-form-urlencoded', 'a=b'],
];

/** Every common field name set to the same hostile JSON value. */
const bodyOf = (value: string) => `{${FIELDS.map((f) => `"${f}":${value}`).join(',')}}`;

const concrete = (url: string, param: string) => url.replace(/:[^/]+/g, param);

function expectErrorDocument(
  label: string,
  res: { statusCode: number; body: string; headers: Record<string, unknown> },
) {
  expect(res.statusCode, `${label} → ${res.statusCode} ${res.body.slice(0, 200)}`).toBeLessThan(500);
  if (res.statusCode >= 400) {
    const body = JSON.parse(res.body) as Record<string, unknown>;
    const isError = typeof body.error === 'string' && typeof body.message === 'string';
    const isProblem = typeof body.code === 'string' && typeof body.title === 'string';
    const isTrpc = typeof body.error === 'object' && body.error !== null;
    expect(isError || isProblem || isTrpc, `${label}: ${res.body.slice(0, 200)}`).toBe(true);
  }
}

describe('hostile input on every route', () => {
  const streamed = [
    '/api/admin/leads',
    '/api/admin/api-leads',
    '/api/admin/export',
    '/api/admin/export-api-leads',
  ];
  const rows = [
    ...restRoutes.map((r) => ({ method: r.method, url: r.url })),
    ...streamed.map((url) => ({ method: 'GET' as const, url })),
  ];

  for (const signedIn of [false, true]) {
    it(`REST table and streamed routes (${signedIn ? 'signed in' : 'signed out'}): no 5xx`, async () => {
      for (const row of rows) {
        const auth = signedIn ? { cookies } : {};
        const urls = [
          concrete(row.url, '11111111-2222-4333-8444-555555555555'),
          concrete(row.url, '%00'),
          concrete(row.url, 'x'.repeat(3000)),
        ];
        for (const url of urls) {
          if (row.method === 'GET' || row.method === 'DELETE') {
            for (const query of [
              '?page=%00',
              '?page=-1&pageSize=abc&sortBy=%27',
              '?search=%ED%A0%80',
              `?q=${'z'.repeat(5000)}`,
            ]) {
              const res = await t.app.inject({ method: row.method, url: `${url}${query}`, ...auth });
              expectErrorDocument(`${row.method} ${url}${query}`, res);
            }
          }
          if (row.method === 'GET') continue;
          for (const [name, value] of Object.entries(HOSTILE_VALUES)) {
            const res = await t.app.inject({
              method: row.method,
              url,
              payload: bodyOf(value),
              headers: { 'content-type': 'application/json' },
              ...auth,
            });
            expectErrorDocument(`${row.method} ${url} ${name}`, res);
          }
          for (const [type, payload] of RAW_BODIES) {
            const res = await t.app.inject({
              method: row.method,
              url,
              payload,
              headers: { 'content-type': type },
              ...auth,
            });
            expectErrorDocument(`${row.method} ${url} ${type} ${payload.slice(0, 30)}`, res);
          }
        }
      }
    });
  }

  it('every tRPC procedure: no 5xx', async () => {
    const router = createAppRouter({ supportEmail: t.config.supportEmail });
    const procedures = Object.entries(router._def.procedures) as unknown as [
      string,
      { _def: { type: string } },
    ][];
    expect(procedures.length).toBeGreaterThan(10);
    for (const signedIn of [false, true]) {
      const auth = signedIn ? { cookies } : {};
      for (const [path, procedure] of procedures) {
        for (const [name, value] of Object.entries(HOSTILE_VALUES)) {
          const input = name === 'null' ? null : Object.fromEntries(FIELDS.map((f) => [f, value]));
          const res =
            procedure._def.type === 'query'
              ? await t.app.inject({
                  method: 'GET',
                  url: `/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`,
                  ...auth,
                })
              : await t.app.inject({
                  method: 'POST',
                  url: `/api/trpc/${path}`,
                  payload: input ?? {},
                  ...auth,
                });
          expectErrorDocument(`trpc ${path} ${name}`, res);
        }
        const raw = await t.app.inject({
          method: 'POST',
          url: `/api/trpc/${path}`,
          payload: '{"a":',
          headers: { 'content-type': 'application/json' },
          ...auth,
        });
        expect(raw.statusCode, `trpc ${path} broken JSON`).toBeLessThan(500);
      }
    }
  });

  it('bodyless POSTs accept an empty body with or without a JSON content type; no session is 401 whatever the body', async () => {
    const session = await signIn(t.app); // the walks above signed out through logout
    for (const url of ['/api/admin/backup', '/api/trpc/admin.backup']) {
      // tRPC's adapter itself requires a content type on POST (415 without one); the REST paths do not.
      const variants = url.startsWith('/api/trpc/')
        ? [{ 'content-type': 'application/json' }]
        : [{ 'content-type': 'application/json' }, {}];
      for (const headers of variants as Record<string, string>[]) {
        const anonymous = await t.app.inject({ method: 'POST', url, headers, payload: '' });
        expect(anonymous.statusCode, `${url} signed out`).toBe(401);
        const garbage = await t.app.inject({
          method: 'POST',
          url,
          headers: { 'content-type': 'application/json' },
          payload: '{oops',
        });
        expect(garbage.statusCode, `${url} signed out, broken body`).toBe(401);
      }
      // On the suite's embedded pass the app reaches the embedded PostgreSQL 18 through a URL, so its
      // backups run this machine's pg_dump 15, which refuses a newer server: nothing to prove there.
      if (inject('testDb').kind === 'embedded') continue;
      const signed = await t.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json' },
        payload: '',
        cookies: session,
      });
      expect(signed.statusCode, `${url} signed in: ${signed.body}`).toBe(200);
    }
  });
});
