import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCliContext, parseArgs, UsageError } from '../src/cli/command';
import { demoCommands } from '../src/cli/demo.commands';
import { loadConfig } from '../src/config';
import { seedAdmin, signIn } from './support/admin';
import { startTestApp, type TestApp } from './support/test-app';

// Issue 37 (finding 13): `npm run demo` loads realistic demo data into an empty database — visits over 30
// days, website leads, API leads — through the app's own operations; never into one that holds data.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await seedAdmin(t.app);
});
afterAll(async () => {
  await t?.close();
});

async function demo(): Promise<string[]> {
  const [command] = demoCommands;
  if (!command) throw new Error('no demo command');
  const out: string[] = [];
  const config = loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: t.db.url });
  await command.run(
    createCliContext(config, (l) => out.push(l)),
    parseArgs(command, []),
  );
  return out;
}

describe('demo:load', () => {
  it('fills an empty database that the dashboards then show, and refuses one with data', async () => {
    const out = (await demo()).join('\n');
    expect(out).toMatch(/Loaded 240 visits over 30 days, \d+ website leads and 40 API leads/);
    const cookies = await signIn(t.app);
    const stats = (await t.app.inject({ url: '/api/admin/stats', cookies })).json();
    expect(stats.totalLeads).toBeGreaterThan(20);
    const analytics = (await t.app.inject({ url: '/api/admin/analytics', cookies })).json();
    expect(analytics.totalVisits).toBe(240);
    expect(analytics.dailyViews.filter((d: { views: number }) => d.views > 0).length).toBe(30);
    expect((await t.app.inject({ url: '/api/admin/api-stats', cookies })).json().totalApiLeads).toBe(40);
    await expect(demo()).rejects.toBeInstanceOf(UsageError);
  });
});
