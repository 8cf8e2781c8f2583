import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { ADMIN, seedAdmin } from './support/admin';
import { leadBody } from './support/fixtures';
import { LEVEL, memoryLog } from './support/log-lines';
import { startTestApp, type TestApp } from './support/test-app';

// Issue 38, finding 5: the admin cookie had no Secure flag unless COOKIE_SECURE=true, even when the
// request came over HTTPS through a trusted proxy; the Origin check compared the host only, so
// `https://127.0.0.1:4200` passed on the http site at 127.0.0.1:4200; logout sent no clearing Set-Cookie.

const HOST = '127.0.0.1:4200';
const log = memoryLog();
/** Behind a trusted proxy (X-Forwarded-Proto believed), COOKIE_SECURE off. */
let proxied: TestApp;
/** No proxy trusted: X-Forwarded-Proto is anyone's header and changes nothing. */
let direct: Awaited<ReturnType<typeof buildApp>>;

beforeAll(async () => {
  proxied = await startTestApp({ TRUST_PROXY: 'true', LOG_LEVEL: 'info' }, { logStream: log.stream });
  await seedAdmin(proxied.app);
  direct = await buildApp(
    { ...proxied.config, trustProxy: false, logLevel: 'silent' },
    { databaseUrl: proxied.db.url },
  );
});
afterAll(async () => {
  await direct?.close();
  await proxied?.close();
});

type Res = { cookies: { name: string; value: string; secure?: boolean; maxAge?: number; expires?: Date }[] };
const cookie = (res: Res, name: string) => res.cookies.find((c) => c.name === name);
const signInVia = (app: typeof direct, proto?: string, origin?: string) =>
  app.inject({
    method: 'POST',
    url: '/api/admin/login',
    payload: ADMIN,
    headers: { host: HOST, ...(proto ? { 'x-forwarded-proto': proto } : {}), ...(origin ? { origin } : {}) },
  });

describe('Secure cookies', () => {
  it('over plain HTTP with COOKIE_SECURE off: no Secure, and no warning', async () => {
    const res = await signInVia(proxied.app);
    expect(res.statusCode).toBe(200);
    expect(cookie(res, 'uf_admin')?.secure).toBeFalsy();
    expect(log.lines.filter((l) => /COOKIE_SECURE/.test(l.msg))).toEqual([]);
  });

  it('over HTTPS per a trusted proxy: Secure on the admin and the lead-owner cookie, and one warning', async () => {
    const signedIn = await signInVia(proxied.app, 'https');
    expect(signedIn.statusCode).toBe(200);
    expect(cookie(signedIn, 'uf_admin')?.secure).toBe(true);
    const submitted = await proxied.app.inject({
      method: 'POST',
      url: '/api/submit-search',
      payload: leadBody(),
      headers: { host: HOST, 'x-forwarded-proto': 'https' },
    });
    expect(submitted.statusCode).toBe(200);
    expect(cookie(submitted, 'lead_owner')?.secure).toBe(true);
    // A session started over HTTP and used over HTTPS gets Secure too (its cookie options are stored).
    const plain = await signInVia(proxied.app);
    const reused = await proxied.app.inject({
      url: '/api/admin/me',
      cookies: { uf_admin: cookie(plain, 'uf_admin')?.value ?? '' },
      headers: { host: HOST, 'x-forwarded-proto': 'https' },
    });
    expect(reused.statusCode).toBe(200);
    expect(cookie(reused, 'uf_admin')?.secure).toBe(true);
    const warnings = log.lines.filter((l) => /COOKIE_SECURE is off/.test(l.msg));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.level).toBe(LEVEL.warn);
  });

  it('X-Forwarded-Proto from a proxy that is not trusted changes nothing', async () => {
    const res = await signInVia(direct, 'https');
    expect(res.statusCode).toBe(200);
    expect(cookie(res, 'uf_admin')?.secure).toBeFalsy();
  });

  it('COOKIE_SECURE=true: Secure on every cookie set', async () => {
    const app = await buildApp(
      { ...proxied.config, cookieSecure: true, logLevel: 'silent' },
      { databaseUrl: proxied.db.url },
    );
    try {
      const res = await signInVia(app, 'https');
      expect(cookie(res, 'uf_admin')?.secure).toBe(true);
      const submitted = await app.inject({ method: 'POST', url: '/api/submit-search', payload: leadBody() });
      expect(cookie(submitted, 'lead_owner')?.secure).toBe(true);
    } finally {
      await app.close();
    }
  });
});

describe('the Origin check', () => {
  const post = (app: typeof direct, origin: string, proto?: string) =>
    app.inject({
      method: 'POST',
      url: '/api/admin/logout',
      headers: { host: HOST, origin, ...(proto ? { 'x-forwarded-proto': proto } : {}) },
    });

  it.each([
    ['https://127.0.0.1:4200', 403],
    ['http://127.0.0.1:4201', 403],
    ['http://127.0.0.1', 403],
    ['http://localhost:4200', 403],
    ['null', 403],
    ['http://127.0.0.1:4200', 200],
  ])('on the http site %s → %i', async (origin, status) => {
    expect((await post(direct, origin)).statusCode).toBe(status);
  });

  it.each([
    ['https://127.0.0.1:4200', 200],
    ['http://127.0.0.1:4200', 403],
  ])('behind a trusted proxy over HTTPS %s → %i', async (origin, status) => {
    expect((await post(proxied.app, origin, 'https')).statusCode).toBe(status);
  });

  it('a default port written out is the same origin', async () => {
    const res = await direct.inject({
      method: 'POST',
      url: '/api/admin/logout',
      headers: { host: '127.0.0.1', origin: 'http://127.0.0.1:80' },
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('sign-out', () => {
  it('clears the cookie, and the old one no longer works', async () => {
    const signedIn = await signInVia(proxied.app, 'https');
    const value = cookie(signedIn, 'uf_admin')?.value ?? '';
    const out = await proxied.app.inject({
      method: 'POST',
      url: '/api/admin/logout',
      cookies: { uf_admin: value },
      headers: { host: HOST, 'x-forwarded-proto': 'https' },
    });
    expect(out.statusCode).toBe(200);
    const cleared = cookie(out, 'uf_admin');
    expect(cleared?.value).toBe('');
    expect(cleared?.expires?.getTime()).toBeLessThan(Date.now());
    expect(cleared?.secure).toBe(true);
    const after = await proxied.app.inject({ url: '/api/admin/me', cookies: { uf_admin: value } });
    expect(after.statusCode).toBe(401);
  });
});
