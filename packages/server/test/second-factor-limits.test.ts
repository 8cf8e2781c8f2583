import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECOND_FACTOR_LIMITS } from '../src/admin/admin-two-factor.service';
import { seedAdmin, signIn } from './support/admin';
import { waitFor } from './support/raw-http';
import { startSink } from './support/smtp-sink';
import { startTestApp, type TestApp } from './support/test-app';

// Issue 38, finding 1: with the password known, 300 wrong TOTP codes from 30 addresses all got 401 (none
// 429) and then the right code signed in — the limits counted per address, and account-wide failures only
// slowed sign-in down. Now the code step has a limit per account across addresses: after 5 wrong codes
// (TOTP or recovery) every address gets 429 with Retry-After until the window ends, the right code
// included; the password step is unchanged; the audit log and the admin's inbox hear of it.

let t: TestApp;
let sink: Awaited<ReturnType<typeof startSink>>;

beforeAll(async () => {
  sink = await startSink();
  // Client addresses from X-Forwarded-For, as behind the compose stack's proxy.
  t = await startTestApp({ TRUST_PROXY: 'true', SMTP_URL: `smtp://127.0.0.1:${sink.port}` });
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

const codeAt = (secret: string, timestamp = Date.now()) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp,
  });
const login = (payload: object, address: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/admin/login',
    payload,
    headers: { 'x-forwarded-for': address },
  });
/** An admin with an e-mail address and two-factor on; answers the TOTP secret and recovery codes. */
async function enrolled(admin: { username: string; password: string }, email: string) {
  await seedAdmin(t.app, admin);
  const cookies = await signIn(t.app, admin);
  await t.app.inject({
    method: 'PATCH',
    url: '/api/admin/me/email',
    cookies,
    payload: { email, dailySummary: false, weeklySummary: false, alerts: false },
  });
  const { secret } = (await t.app.inject({ method: 'POST', url: '/api/admin/me/totp', cookies })).json();
  const confirmed = await t.app.inject({
    method: 'POST',
    url: '/api/admin/me/totp/confirm',
    cookies,
    payload: { code: codeAt(secret) },
  });
  return { secret: secret as string, recoveryCodes: confirmed.json().recoveryCodes as string[] };
}
const auditOf = async (actor: string, action: string) =>
  (
    await t.app.db.pool.query('select ip_address from audit_log where actor = $1 and action = $2', [
      actor,
      action,
    ])
  ).rows;
/** The end of the lock's window, as if 15 minutes had passed. */
const endWindow = () =>
  t.app.db.pool.query(
    "update rate_limit_bucket set window_start = now() - interval '16 minutes' where key like 'second-factor:%'",
  );

describe('the second factor against guessing from many addresses', () => {
  it('300 wrong codes from 30 addresses: 5 answered 401, every other 429 with Retry-After; the right code too', async () => {
    const dave = { username: 'dave', password: 'dave-password-123' };
    const { secret } = await enrolled(dave, 'dave@example.com');
    const addresses = Array.from({ length: 30 }, (_, i) => `198.51.100.${i + 1}`);
    const statuses: number[] = [];
    const retryAfters: string[] = [];
    // Ten rounds, each one guess from every address at once: a parallel burst gets no more tries.
    for (let round = 0; round < 10; round++) {
      const answers = await Promise.all(
        addresses.map((a, i) => login({ ...dave, totp: String(100000 + round * 30 + i) }, a)),
      );
      for (const res of answers) {
        statuses.push(res.statusCode);
        if (res.statusCode === 429) {
          retryAfters.push(String(res.headers['retry-after']));
          expect(res.json().error).toBe('rate_limited');
        }
      }
    }
    expect(statuses).toHaveLength(300);
    expect(statuses.filter((s) => s === 401)).toHaveLength(SECOND_FACTOR_LIMITS.failures);
    expect(statuses.filter((s) => s === 429)).toHaveLength(300 - SECOND_FACTOR_LIMITS.failures);
    for (const r of retryAfters) {
      expect(Number(r)).toBeGreaterThan(0);
      expect(Number(r)).toBeLessThanOrEqual(SECOND_FACTOR_LIMITS.windowSeconds);
    }

    // The right code, from an address that has never failed: still 429 until the window ends.
    const right = await login({ ...dave, totp: codeAt(secret, Date.now() + 30_000) }, '192.0.2.200');
    expect(right.statusCode).toBe(429);
    expect(right.headers['retry-after']).toMatch(/^\d+$/);
    expect(right.cookies.find((c) => c.name === 'uf_admin')).toBeUndefined();
    // The password step is as it was: the password alone still gets its 401 totp_required, no 429.
    const passwordOnly = await login(dave, '192.0.2.201');
    expect(passwordOnly.statusCode).toBe(401);
    expect(passwordOnly.json().error).toBe('totp_required');

    // Audited once, and the admin is told by e-mail.
    expect(await auditOf('dave', 'admin.second_factor_locked')).toHaveLength(1);
    await waitFor(
      () => sink.inbox.some((m) => m.to.includes('dave@example.com')),
      10_000,
      'the lock e-mail to reach the sink',
    );
    const mail = sink.inbox.find((m) => m.to.includes('dave@example.com'));
    expect(mail?.raw).toMatch(/Subject: Alert: Two-factor sign-in locked for dave/);

    // Once the window has ended, the right code signs in.
    await endWindow();
    const after = await login({ ...dave, totp: codeAt(secret, Date.now() + 30_000) }, '192.0.2.200');
    expect(after.statusCode).toBe(200);
  });

  it('recovery codes count too, and the right one is refused while the step is locked', async () => {
    const erin = { username: 'erin', password: 'erin-password-123' };
    const { recoveryCodes } = await enrolled(erin, 'erin@example.com');
    const statuses: number[] = [];
    for (let i = 0; i < SECOND_FACTOR_LIMITS.failures + 2; i++) {
      const res = await login({ ...erin, recoveryCode: 'AAAA-BBBB-CCCC-DDDD' }, `203.0.113.${i + 1}`);
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    const right = await login({ ...erin, recoveryCode: recoveryCodes[0] ?? '' }, '203.0.113.100');
    expect(right.statusCode).toBe(429);
    // Refused before it was checked: the code is not used up.
    const { rows } = await t.app.db.pool.query(
      "select count(*)::int as n from admin_recovery_code c join admin_user u on u.id = c.admin_id where u.username = 'erin' and c.used_at is null",
    );
    expect(rows[0].n).toBe(10);
    expect(await auditOf('erin', 'admin.second_factor_locked')).toHaveLength(1);
    await endWindow();
    expect((await login({ ...erin, recoveryCode: recoveryCodes[0] ?? '' }, '203.0.113.100')).statusCode).toBe(
      200,
    );
  });

  it('a right code gives its place back: the admin signing in does not bring the lock closer', async () => {
    const fay = { username: 'fay', password: 'fay-password-1234' };
    const { secret } = await enrolled(fay, 'fay@example.com');
    const future = (steps: number) => codeAt(secret, Date.now() + steps * 30_000);
    for (let i = 0; i < SECOND_FACTOR_LIMITS.failures - 1; i++) {
      expect((await login({ ...fay, totp: '000000' }, '203.0.113.50')).statusCode).toBe(401);
    }
    expect((await login({ ...fay, totp: future(1) }, '198.51.100.99')).statusCode).toBe(200);
    // One wrong code more is the limit's last: still 401, then locked.
    expect((await login({ ...fay, totp: '000000' }, '203.0.113.51')).statusCode).toBe(401);
    expect((await login({ ...fay, totp: '000000' }, '203.0.113.52')).statusCode).toBe(429);
  });

  it('the account screen counts wrong codes against the same limit', async () => {
    const gus = { username: 'gus', password: 'gus-password-1234' };
    const { secret } = await enrolled(gus, 'gus@example.com');
    const withCode = { ...gus, totp: codeAt(secret, Date.now() + 30_000) };
    const cookies = await signIn(t.app, withCode);
    const statuses: number[] = [];
    for (let i = 0; i < SECOND_FACTOR_LIMITS.failures + 1; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/admin/me/totp/recovery-codes',
        cookies,
        payload: { code: '000000' },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, SECOND_FACTOR_LIMITS.failures).every((s) => s === 400)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    const signInNow = await login({ ...gus, totp: codeAt(secret, Date.now() + 60_000) }, '198.51.100.77');
    expect(signInNow.statusCode).toBe(429);
  });
});
