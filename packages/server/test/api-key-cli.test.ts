import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyCommands } from '../src/cli/api-key.commands';
import { createCliContext, parseArgs } from '../src/cli/command';
import { loadConfig } from '../src/config';
import { startTestApp, type TestApp } from './support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** Runs a command the way `npm run cli` does: its own connection to the test database. */
async function run(line: string): Promise<string[]> {
  const [name, ...args] = line.split(' ');
  const command = apiKeyCommands.find((c) => c.name === name);
  if (!command) throw new Error(`no command ${name}`);
  const out: string[] = [];
  const ctx = createCliContext(loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: t.db.url }), (l) =>
    out.push(l),
  );
  await command.run(ctx, parseArgs(command, args));
  return out;
}

describe('api-key CLI commands', () => {
  it('create shows the key once, list shows only its prefix, revoke stops it working', async () => {
    const created = await run('api-key:create Acme');
    const secret = created.join('\n').match(/ufk_[A-Za-z0-9_-]+/)?.[0];
    expect(secret).toBeTruthy();
    const post = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/partner/leads',
        headers: { authorization: `Bearer ${secret}` },
        payload: {},
      });
    expect((await post()).statusCode).toBe(400);

    const listed = (await run('api-key:list')).join('\n');
    expect(listed).toContain('Acme');
    expect(listed).toContain('active');
    expect(listed).not.toContain(secret);

    const prefix = secret!.slice(0, 12);
    expect((await run(`api-key:revoke ${prefix}`)).join('\n')).toContain('Revoked');
    expect((await post()).statusCode).toBe(401);
    expect((await run('api-key:list')).join('\n')).toContain('revoked');

    const audit = (await t.app.db.pool.query('select action from audit_log order by id')).rows.map(
      (r) => r.action,
    );
    expect(audit).toEqual(['partner_key.create', 'partner_key.revoke']);
  });

  it('a second key for the same partner name (any case) belongs to the same partner', async () => {
    await run('api-key:create acme');
    const { rows } = await t.app.db.pool.query('select count(*)::int as n from partner');
    expect(rows[0].n).toBe(1);
  });
});
