import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountDelayMs, LOGIN_LIMITS } from '../src/admin/admin-auth.service';
import { ADMIN, seedAdmin } from './support/admin';
import { startTestApp, type TestApp } from './support/test-app';

// Issue 22, finding 3: the per-account sign-in limit counted attempts before the password check and
// across all addresses, so 10 wrong tries for `victim` from anywhere locked the real admin out for 15
// minutes, from any address — also for "Victim " with a trailing space. Now: limits per address and per
// (account, address); account-wide failures only slow sign-in down.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await seedAdmin(t.app);
});
afterAll(async () => {
  await t?.close();
});

const login = (username: string, password: string, remoteAddress: string) =>
  t.app.inject({ method: 'POST', url: '/api/admin/login', payload: { username, password }, remoteAddress });

describe('sign-in limits', () => {
  it('throttle an attacker hammering one account from one address, while the admin signs in from another', async () => {
    const attacker = '203.0.113.7';
    const spellings = [ADMIN.username, ` ${ADMIN.username.toUpperCase()} `, `${ADMIN.username} `];
    const codes: number[] = [];
    // The attacker keeps going; the admin signs in from elsewhere once the account has failures enough
    // to be slowed down.
    const attack = (async () => {
      for (let i = 0; i < LOGIN_LIMITS.perAccountAndClient + 5; i++) {
        const res = await login(
          spellings[i % spellings.length] ?? ADMIN.username,
          'wrong-password',
          attacker,
        );
        codes.push(res.statusCode);
        if (res.statusCode === 429) {
          expect(res.headers['retry-after']).toMatch(/^\d+$/);
          expect(res.json().error).toBe('rate_limited');
        }
      }
    })();
    await attack;
    expect(codes.slice(0, LOGIN_LIMITS.perAccountAndClient).every((c) => c === 401)).toBe(true);
    expect(codes.slice(LOGIN_LIMITS.perAccountAndClient).every((c) => c === 429)).toBe(true);

    // Meanwhile (the attacker still at it) the admin, from an address that has not failed, gets in —
    // whatever the spelling of the name.
    const [admin] = await Promise.all([
      login(` ${ADMIN.username.toUpperCase()} `, ADMIN.password, '198.51.100.20'),
      login(ADMIN.username, 'wrong-password', attacker),
    ]);
    expect(admin.statusCode).toBe(200);
    expect(admin.cookies.some((c) => c.name === 'uf_admin')).toBe(true);
    // The attacker's address stays throttled, also for the right password.
    expect((await login(ADMIN.username, ADMIN.password, attacker)).statusCode).toBe(429);
  });

  it('a stranger failing from many addresses slows the account down but never locks the admin out', async () => {
    await seedAdmin(t.app, { username: 'Victim', password: 'victim-password-1' });
    for (let i = 0; i < LOGIN_LIMITS.accountFailuresBeforeDelay + 2; i++) {
      const res = await login(i % 2 ? 'victim' : 'Victim ', 'wrong-password', `192.0.2.${i + 1}`);
      expect(res.statusCode).toBe(401);
    }
    const { rows } = await t.app.db.pool.query<{ count: number }>(
      "select count from rate_limit_bucket where key = 'login:user:victim'",
    );
    expect(rows[0]?.count).toBe(LOGIN_LIMITS.accountFailuresBeforeDelay + 2);
    expect(accountDelayMs(rows[0]?.count ?? 0)).toBeGreaterThan(0);
    expect(accountDelayMs(1_000)).toBeLessThanOrEqual(LOGIN_LIMITS.delayMaxMs);
    const res = await login('VICTIM', 'victim-password-1', '198.51.100.99');
    expect(res.statusCode).toBe(200);
  });
});

describe('ADMIN_SIGN_IN_LIMIT_PER_ADDRESS', () => {
  it('sets how many attempts one address may make, whatever the account', async () => {
    const small = await startTestApp({ ADMIN_SIGN_IN_LIMIT_PER_ADDRESS: '5' });
    try {
      await seedAdmin(small.app);
      const codes: number[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await small.app.inject({
          method: 'POST',
          url: '/api/admin/login',
          payload: { username: `someone-${i}`, password: 'wrong-password' },
          remoteAddress: '192.0.2.44',
        });
        codes.push(res.statusCode);
      }
      expect(codes).toEqual([401, 401, 401, 401, 401, 429]);
      // Another address is not affected.
      const admin = await small.app.inject({
        method: 'POST',
        url: '/api/admin/login',
        payload: ADMIN,
        remoteAddress: '192.0.2.45',
      });
      expect(admin.statusCode).toBe(200);
    } finally {
      await small.close();
    }
  });
});
