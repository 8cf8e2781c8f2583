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
    // The leads came over the same 30 days as their visits (not all today): each on its visit's day, its
    // consent receipt with it, the day's and month's cards below the total.
    expect(stats.dailyLeads).toBeLessThan(stats.totalLeads / 4);
    const days = await t.app.db.pool.query<{ days: number; apart: number; receipts: number }>(
      `select count(distinct l.opt_in_date)::int as days,
         count(*) filter (where not exists (select 1 from analytics_visit v
           where v.session_id = l.session_id and v.day = l.opt_in_date::date))::int as apart,
         count(*) filter (where r.created_at <> l.created_at)::int as receipts
       from website_lead l join consent_receipt r on r.lead_id = l.id`,
    );
    expect(days.rows[0]).toMatchObject({ apart: 0, receipts: 0 });
    expect(days.rows[0]?.days).toBeGreaterThan(15);
    const apiDays = await t.app.db.pool.query<{ n: number }>(
      `select count(distinct created_at::date)::int as n from api_lead`,
    );
    expect(apiDays.rows[0]?.n).toBeGreaterThan(15);
    // Lead quality (issue 33): the demo's visitors are mostly accepted; a few wait in the review queue or are
    // rejected, so every screen has something to show.
    const { rows } = await t.app.db.pool.query<{ verdict: string; n: number }>(
      `select quality_verdict as verdict, count(*)::int as n from (
         select quality_verdict from website_lead union all select quality_verdict from api_lead) l group by 1`,
    );
    const by = Object.fromEntries(rows.map((r) => [r.verdict, r.n]));
    expect(by.accept).toBeGreaterThan((by.hold ?? 0) + (by.reject ?? 0));
    expect(by.hold).toBeGreaterThan(0);
    expect(by.reject).toBeGreaterThan(0);
    await expect(demo()).rejects.toBeInstanceOf(UsageError);
  });
});
