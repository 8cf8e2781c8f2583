import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppRouter } from '../src/trpc/router';
import { sessionFreeProcedures } from '../src/trpc/session-free-routes';
import { ADMIN, seedAdmin, signIn } from './support/admin';
import { leadBody } from './support/fixtures';
import { startTestApp, type TestApp } from './support/test-app';

// Issue 23: public operations never touch the admin session, whichever door they come through. The
// landing form's own call (tRPC lead.submit) ran inside the session's scope, through the tRPC adapter;
// it now has a route of its own outside that scope, on the REST submit's path, in tRPC's envelope.

let t: TestApp;
let adminCookies: Record<string, string>;

beforeAll(async () => {
  t = await startTestApp();
  await seedAdmin(t.app);
  adminCookies = await signIn(t.app, ADMIN);
});
afterAll(async () => t?.close());

const sessionCookieSet = (res: { cookies: { name: string }[] }) =>
  res.cookies.some((c) => c.name === 'uf_admin');

describe('session-free tRPC procedures', () => {
  it('are exactly the public procedures that need no session (admin sign-in and everything admin keep it)', () => {
    const paths = sessionFreeProcedures(createAppRouter({ supportEmail: 'support@example.com' })).map(
      (p) => `${p.method} ${p.path}`,
    );
    expect(paths.sort()).toEqual(
      [
        'GET lead.byId',
        'GET lead.formToken',
        'POST analytics.track',
        'POST lead.setBeneficiary',
        'POST lead.submit',
        'POST partner.createLead',
        'POST privacy.unsubscribe',
      ].sort(),
    );
  });

  it('lead.submit answers in tRPC’s envelope and never reads or renews an admin session', async () => {
    // Inside the session's scope a signed-in admin's request renews the rolling session cookie…
    const admin = await t.app.inject({ method: 'GET', url: '/api/trpc/adminAuth.me', cookies: adminCookies });
    expect(admin.statusCode).toBe(200);
    expect(sessionCookieSet(admin)).toBe(true);
    // …the form's call with the same cookie does not: the session is never loaded.
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/trpc/lead.submit',
      payload: leadBody(),
      cookies: adminCookies,
    });
    expect(res.statusCode).toBe(200);
    expect(sessionCookieSet(res)).toBe(false);
    const id = res.json().result.data.id as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.cookies.some((c) => c.name === 'lead_owner')).toBe(true);

    const byId = await t.app.inject({
      method: 'GET',
      url: `/api/trpc/lead.byId?input=${encodeURIComponent(JSON.stringify({ id }))}`,
    });
    expect(byId.statusCode).toBe(200);
    expect(byId.json().result.data).toMatchObject({ id });
  });

  it('answers errors with the same shape and status as the tRPC adapter', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/trpc/lead.submit',
      payload: { ...leadBody(), email: 'not-an-email' },
    });
    expect(bad.statusCode).toBe(400);
    const body = bad.json();
    expect(body.error).toMatchObject({
      code: -32600,
      data: { code: 'BAD_REQUEST', httpStatus: 400, path: 'lead.submit', app: { error: 'validation_error' } },
    });
    expect(body.error.data.app.fieldErrors.map((f: { field: string }) => f.field)).toContain('email');
    expect(body.error.data.stack).toBeUndefined();

    // A procedure still behind the adapter answers the same envelope for the same kind of refusal.
    const viaAdapter = await t.app.inject({
      method: 'POST',
      url: '/api/trpc/adminAuth.login',
      payload: { username: 5 },
    });
    expect(viaAdapter.statusCode).toBe(400);
    expect(Object.keys(viaAdapter.json().error).sort()).toEqual(Object.keys(body.error).sort());
    expect(Object.keys(viaAdapter.json().error.data).sort()).toEqual(Object.keys(body.error.data).sort());

    const duplicate = leadBody();
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/trpc/lead.submit', payload: duplicate })).statusCode,
    ).toBe(200);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/trpc/lead.submit',
      payload: { ...leadBody(), email: duplicate.email },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.data).toMatchObject({ code: 'CONFLICT', app: { error: 'duplicate_email' } });

    const notFound = await t.app.inject({
      method: 'GET',
      url: `/api/trpc/lead.byId?input=${encodeURIComponent(JSON.stringify({ id: crypto.randomUUID() }))}`,
    });
    expect(notFound.statusCode).toBe(404);

    const malformed = await t.app.inject({ method: 'GET', url: '/api/trpc/lead.byId?input=%7Bnot-json' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.data.code).toBe('BAD_REQUEST'); // as the adapter answers it
  });
});
