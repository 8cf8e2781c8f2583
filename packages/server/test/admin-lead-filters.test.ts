import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAdmin, signIn } from './support/admin';
import { leadBody } from './support/fixtures';
import { startTestApp, type TestApp } from './support/test-app';

// Issue 37 (finding 8): the Source filter was case-sensitive ("Google" 0 rows, "google" 96), and an
// inverted date range answered "No leads found" without a word.

let t: TestApp;
let cookies: Record<string, string>;
beforeAll(async () => {
  t = await startTestApp();
  await seedAdmin(t.app);
  cookies = await signIn(t.app);
  const submitted = await t.app.inject({
    method: 'POST',
    url: '/api/submit-search',
    payload: { ...leadBody(), attribution: { utm_source: 'google', utm_campaign: 'Spring-Sale' } },
  });
  expect(submitted.statusCode).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

const list = (query: Record<string, string>) =>
  t.app.inject({ method: 'GET', url: '/api/admin/leads', query, cookies });

describe('lead filters (issue 37)', () => {
  it('match source and campaign whatever their case', async () => {
    const queries: Record<string, string>[] = [
      { source: 'Google' },
      { source: 'GOOGLE' },
      { campaign: 'spring-sale' },
    ];
    for (const query of queries) {
      const res = await list(query);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toHaveLength(1);
    }
  });

  it('refuse an end date before the start date, saying so', async () => {
    const res = await list({ startDate: '2026-05-10', endDate: '2026-05-01' });
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toContain('endDate must not be before startDate');
    const csv = await t.app.inject({
      method: 'GET',
      url: '/api/admin/export',
      query: { startDate: '2026-05-10', endDate: '2026-05-01' },
      cookies,
    });
    expect(csv.statusCode).toBe(400);
  });
});
