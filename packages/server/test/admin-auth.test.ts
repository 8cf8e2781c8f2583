import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { ADMIN, seedAdmin, signIn } from './support/admin';
import { startTestApp, type TestApp } from './support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await seedAdmin(t.app);
});
afterAll(async () => {
  await t?.close();
});

const login = (payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/admin/login', payload, headers });

describe('admin sign-in', () => {
  it('answers 401 without a session', async () => {
    const res = await t.app.inject({ url: '/api/admin/me' });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('unauthorized');
  });

  it('gives the same answer for a wrong password and an unknown user', async () => {
    const wrong = await login({ username: ADMIN.username, password: 'nope-nope' }, { 'x-test': '1' });
    const unknown = await login({ username: 'mallory', password: 'nope-nope' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ error: 'unauthorized', message: 'Invalid username or password' });
    expect(unknown.json()).toEqual(wrong.json());
  });

  it('requires both fields with the spec messages', async () => {
    const res = await login({ username: '', password: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json().fieldErrors).toEqual([
      { field: 'username', message: 'Username is required' },
      { field: 'password', message: 'Password is required' },
    ]);
  });

  it('signs in (case-insensitive user name) with an HttpOnly SameSite cookie and a new session id', async () => {
    const res = await login({ username: ADMIN.username.toUpperCase(), password: ADMIN.password });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ username: ADMIN.username });
    const cookie = res.cookies.find((c) => c.name === 'uf_admin');
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Strict');
    const me = await t.app.inject({ url: '/api/admin/me', cookies: { uf_admin: cookie?.value ?? '' } });
    expect(me.json()).toEqual({ username: ADMIN.username });
  });

  it('logout destroys the session: the old cookie no longer works', async () => {
    const cookies = await signIn(t.app);
    expect((await t.app.inject({ url: '/api/admin/me', cookies })).statusCode).toBe(200);
    const out = await t.app.inject({ method: 'POST', url: '/api/admin/logout', cookies });
    expect(out.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/admin/me', cookies })).statusCode).toBe(401);
  });

  it('refuses a cross-site state-changing request', async () => {
    const res = await login(ADMIN, { origin: 'https://evil.example', host: 'localhost:80' });
    expect(res.statusCode).toBe(403);
  });

  it('shares sessions between two app instances on one database', async () => {
    const other = await buildApp(loadConfig({ LOG_LEVEL: 'silent' }), { databaseUrl: t.db.url });
    try {
      const cookies = await signIn(t.app);
      const me = await other.inject({ url: '/api/admin/me', cookies });
      expect(me.statusCode).toBe(200);
      expect(me.json()).toEqual({ username: ADMIN.username });
    } finally {
      await other.close();
    }
  });

  it('limits sign-in attempts per account and address with 429 and Retry-After', async () => {
    const target = { username: 'bob', password: 'wrong-password' };
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await login(target);
      codes.push(res.statusCode);
      if (res.statusCode === 429) {
        expect(res.headers['retry-after']).toMatch(/^\d+$/);
        expect(res.json().error).toBe('rate_limited');
      }
    }
    expect(codes.slice(0, 10).every((c) => c === 401)).toBe(true);
    expect(codes[10]).toBe(429);
  });
});
