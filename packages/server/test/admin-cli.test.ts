import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from './support/admin';
import { runCli } from './support/server-process';
import { startTestApp, TEST_SCRYPT_LOG_N, type TestApp } from './support/test-app';

// The strict operator CLI (issue 25), run as production runs it (the built dist/cli.js): a mistyped
// flag or an extra argument exits 2 with the usage on stderr and changes nothing; --help anywhere
// prints the command's help and changes nothing; passwords can come from stdin.

let t: TestApp;
let env: Record<string, string>;
beforeAll(async () => {
  t = await startTestApp();
  env = {
    DATABASE_URL: t.db.url,
    ADMIN_PASSWORD_SCRYPT_LOG_N: String(TEST_SCRYPT_LOG_N),
    ADMIN_PASSWORD: '',
  };
});
afterAll(async () => {
  await t?.close();
});

const admins = async () =>
  (
    await t.app.db.pool.query<{ username: string }>('select username from admin_user order by username')
  ).rows.map((r) => r.username);

describe('operator CLI', () => {
  it('refuses an unknown flag or an extra argument with exit 2 and the usage, changing nothing', async () => {
    for (const args of [
      ['admin:create', 'bob', '--pasword', 'x'],
      ['admin:create', 'bob', 'extra'],
      ['admin:create', 'bob', '--password'],
      ['admin:create'],
      ['restore', 'a.dump', 'b.dump', '--yes'],
    ]) {
      const r = runCli(args, env);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^(Unknown option|unexpected argument|missing|Option '--password)/);
      expect(r.stderr).toContain(`Usage: npm run cli -- ${args[0]}`);
    }
    const unknown = runCli(['admin:nope'], env);
    expect(unknown.status).toBe(2);
    expect(await admins()).toEqual([]);
  });

  it('prints the help for --help or -h anywhere and changes nothing', async () => {
    for (const args of [
      ['admin:create', 'bob', '--help'],
      ['admin:create', '-h', 'bob', '--password', 'long-enough-123'],
      ['admin:reset-2fa', '--help'],
    ]) {
      const r = runCli(args, env);
      expect(r.status, args.join(' ')).toBe(0);
      expect(r.stdout).toContain(`Usage: npm run cli -- ${args[0]}`);
    }
    expect(await admins()).toEqual([]);
  });

  it('takes the password from stdin; admin:reset-2fa turns two-factor off and ends the sessions', async () => {
    const created = runCli(['admin:create', 'bob', '--password-stdin'], env, 'bob-password-123\n');
    expect(created.status, created.stderr).toBe(0);
    expect(created.stdout).not.toContain('bob-password-123');
    const bob = { username: 'bob', password: 'bob-password-123' };
    const cookies = await signIn(t.app, bob);
    const { secret } = (await t.app.inject({ method: 'POST', url: '/api/admin/me/totp', cookies })).json();
    const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate();
    await t.app.inject({ method: 'POST', url: '/api/admin/me/totp/confirm', cookies, payload: { code } });
    expect((await t.app.inject({ method: 'POST', url: '/api/admin/login', payload: bob })).json().error).toBe(
      'totp_required',
    );

    const reset = runCli(['admin:reset-2fa', 'BOB'], env);
    expect(reset.status, reset.stderr).toBe(0);
    expect((await t.app.inject({ url: '/api/admin/me', cookies })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/admin/login', payload: bob })).statusCode).toBe(
      200,
    );
    const { rows } = await t.app.db.pool.query('select action from audit_log where actor = $1', ['cli']);
    expect(rows.map((r) => r.action)).toEqual(['admin.two_factor_reset']);
  });
});
