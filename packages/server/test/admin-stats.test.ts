import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_LEADS, WEBSITE_LEADS } from '../src/leads/admin-lead-tables';
import { apiLeadStats, websiteLeadStats } from '../src/leads/admin-leads.service';
import { seedAdmin, signIn } from './support/admin';
import { insertApiLead, insertWebsiteLead } from './support/leads';
import { startTestApp, type TestApp } from './support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ TIME_ZONE: 'America/New_York' });
  await seedAdmin(t.app);
});
afterAll(async () => {
  await t?.close();
});

// Wednesday 2026-03-18, 11:00 in New York (EDT, UTC-4). Its day starts at 04:00Z, its week on Monday
// 2026-03-16 at 04:00Z, its month on 2026-03-01 at 05:00Z (EST, before the DST change).
const NOW = new Date('2026-03-18T15:00:00Z');
const WINDOW_EDGES = [
  { at: '2026-03-18T04:30:00Z', consent: true }, // today
  { at: '2026-03-18T03:30:00Z', consent: true }, // 23:30 on the 17th in New York: this week
  { at: '2026-03-16T04:30:00Z', consent: false }, // Monday 00:30: this week
  { at: '2026-03-16T03:30:00Z', consent: true }, // Sunday 23:30: this month, last week
  { at: '2026-03-01T05:30:00Z', consent: false }, // the 1st, 00:30: this month
  { at: '2026-03-01T04:30:00Z', consent: true }, // February 28th, 23:30: before this month
];

describe('stat cards', () => {
  beforeAll(async () => {
    for (const edge of WINDOW_EDGES) {
      await insertWebsiteLead(t.app.db.pool, { createdAt: new Date(edge.at), consentGiven: edge.consent });
      await insertApiLead(t.app.db.pool, { createdAt: new Date(edge.at) });
    }
  });

  it('counts calendar day, week (from Monday) and month in the business time zone', async () => {
    const stats = await websiteLeadStats(t.app.db.pool, WEBSITE_LEADS, 'America/New_York', NOW);
    expect(stats).toEqual({
      totalLeads: 6,
      dailyLeads: 1,
      weeklyLeads: 3,
      monthlyLeads: 5,
      consentRate: 66.7,
    });
    const api = await apiLeadStats(t.app.db.pool, API_LEADS, 'America/New_York', NOW);
    expect(api).toEqual({ totalApiLeads: 6, dailyApiLeads: 1, weeklyApiLeads: 3, monthlyApiLeads: 5 });
  });

  it('moves the windows with the time zone', async () => {
    // In UTC the 03:30Z lead is already on the 18th, and the Sunday 03:30Z one is on Monday.
    const utc = await websiteLeadStats(t.app.db.pool, WEBSITE_LEADS, 'UTC', NOW);
    expect(utc).toMatchObject({ dailyLeads: 2, weeklyLeads: 4, monthlyLeads: 6 });
  });

  it('answers GET /api/admin/stats and /api/admin/api-stats with the spec fields', async () => {
    await insertWebsiteLead(t.app.db.pool, { consentGiven: true });
    await insertApiLead(t.app.db.pool);
    const cookies = await signIn(t.app);
    const stats = await t.app.inject({ url: '/api/admin/stats', cookies });
    expect(stats.statusCode).toBe(200);
    expect(stats.json()).toEqual({
      totalLeads: 7,
      dailyLeads: 1,
      weeklyLeads: expect.any(Number),
      monthlyLeads: expect.any(Number),
      consentRate: 71.4,
    });
    const api = await t.app.inject({ url: '/api/admin/api-stats', cookies });
    expect(api.json()).toMatchObject({ totalApiLeads: 7, dailyApiLeads: 1 });
  });

  it('is all zeros on an empty table', async () => {
    await t.app.db.pool.query('delete from website_lead');
    const stats = await websiteLeadStats(t.app.db.pool, WEBSITE_LEADS, 'America/New_York', NOW);
    expect(stats).toEqual({ totalLeads: 0, dailyLeads: 0, weeklyLeads: 0, monthlyLeads: 0, consentRate: 0 });
  });
});
