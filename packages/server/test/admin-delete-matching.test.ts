import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELETE_MATCHING_BATCH } from '../src/leads/admin-leads.service';
import { seedAdmin, signIn } from './support/admin';
import { insertApiLead, insertWebsiteLead } from './support/leads';
import { startTestApp, type TestApp } from './support/test-app';

// "Select all N matching" (issue 26): a bulk delete by filter reaches every matching lead, past the first
// page and past one batch, and nothing else; a count that changed since the admin confirmed deletes
// nothing.

let t: TestApp;
let cookies: Record<string, string>;

/** `n` website leads in `state` written in one statement (faster than one insert each). */
async function bulkInsertWebsite(n: number, state: string, campaign: string | null) {
  await t.app.db.pool.query(
    `insert into website_lead (id, first_name, last_name, email, phone, street_address, zip_code, state,
       birth_month, birth_day, birth_year, consent_given, opt_in_date, opt_in_time, tcpa_compliant,
       ip_address, campaign, created_at, updated_at)
     select gen_random_uuid(), 'Bulk', 'Lead' || g, 'bulk.' || $2 || '.' || coalesce($3, 'none') || '.' || g || '@example.com',
       '(555) 123-4567', '1 Main St', '82001', $2, 5, 17, 1970, true, '2026-01-02', '03:04:05', 'true',
       '203.0.113.9', $3, now() - g * interval '1 second', now()
     from generate_series(1, $1) g`,
    [n, state, campaign],
  );
}

const count = async (sql: string, params: unknown[] = []) =>
  (await t.app.db.pool.query<{ n: number }>(`select count(*)::int as n from ${sql}`, params)).rows[0]?.n;

beforeAll(async () => {
  t = await startTestApp({ TIME_ZONE: 'America/New_York' });
  await seedAdmin(t.app);
  cookies = await signIn(t.app);
});
afterAll(async () => {
  await t?.close();
});

describe('DELETE /api/admin/leads/matching', () => {
  it('deletes every lead the filters match, past the first page and the first batch, and nothing else', async () => {
    const matching = DELETE_MATCHING_BATCH + 1200;
    await bulkInsertWebsite(matching, 'WY', 'spam-burst');
    await bulkInsertWebsite(40, 'WY', 'spring-sale'); // same state, other campaign
    await bulkInsertWebsite(30, 'MT', 'spam-burst'); // same campaign, other state
    const keep = await insertWebsiteLead(t.app.db.pool, { state: 'WY' });

    // The first page is 50 rows of the filter's total, as the dashboard sees it.
    const page = await t.app.inject({
      url: '/api/admin/leads?state=WY&campaign=spam-burst&page=1&pageSize=50',
      cookies,
    });
    expect(page.json()).toHaveLength(50);
    expect(page.headers['x-total-count']).toBe(String(matching));

    const res = await t.app.inject({
      method: 'DELETE',
      url: '/api/admin/leads/matching',
      cookies,
      payload: { filters: { state: 'WY', campaign: 'spam-burst' }, expectedCount: matching },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ deletedCount: matching });

    expect(await count(`website_lead where state = 'WY' and campaign = 'spam-burst'`)).toBe(0);
    expect(await count(`website_lead where state = 'WY' and campaign = 'spring-sale'`)).toBe(40);
    expect(await count(`website_lead where state = 'MT' and campaign = 'spam-burst'`)).toBe(30);
    expect(await count('website_lead where id = $1', [keep.id])).toBe(1);

    const audit = (await t.app.inject({ url: '/api/admin/audit-log?limit=5', cookies })).json();
    expect(audit[0]).toMatchObject({
      actor: 'alice',
      action: 'leads.delete',
      detail: {
        matching: { state: 'WY', campaign: 'spam-burst' },
        requested: matching,
        deleted: matching,
      },
    });
  });

  it('deletes nothing when a different number matches than the admin confirmed', async () => {
    await bulkInsertWebsite(12, 'VT', null);
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/api/admin/leads/matching',
      cookies,
      payload: { filters: { state: 'VT' }, expectedCount: 11 },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: 'conflict' });
    expect(res.json().message).toContain('12 match now');
    expect(await count(`website_lead where state = 'VT'`)).toBe(12);
  });

  it('honours the date filter as whole business days and the search box', async () => {
    // 03:30 UTC on 2 Oct is still 1 Oct in New York.
    const late = await insertWebsiteLead(t.app.db.pool, {
      state: 'ND',
      lastName: 'Nightowl',
      createdAt: new Date('2026-10-02T03:30:00Z'),
    });
    const next = await insertWebsiteLead(t.app.db.pool, {
      state: 'ND',
      lastName: 'Nightowl',
      createdAt: new Date('2026-10-02T05:00:00Z'),
    });
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/api/admin/leads/matching',
      cookies,
      payload: {
        filters: { search: 'nightowl', startDate: '2026-10-01', endDate: '2026-10-01' },
        expectedCount: 1,
      },
    });
    expect(res.json()).toEqual({ deletedCount: 1 });
    expect(await count('website_lead where id = $1', [late.id])).toBe(0);
    expect(await count('website_lead where id = $1', [next.id])).toBe(1);
  });

  it('needs a signed-in admin and valid filters', async () => {
    const anonymous = await t.app.inject({
      method: 'DELETE',
      url: '/api/admin/leads/matching',
      payload: { filters: {}, expectedCount: 1 },
    });
    expect(anonymous.statusCode).toBe(401);
    const bad = await t.app.inject({
      method: 'DELETE',
      url: '/api/admin/leads/matching',
      cookies,
      payload: { filters: { state: 'ZZ' }, expectedCount: 1 },
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('DELETE /api/admin/api-leads/matching', () => {
  it('deletes every matching API lead and nothing else', async () => {
    for (let i = 0; i < 25; i += 1) await insertApiLead(t.app.db.pool, { state: 'ME' });
    const other = await insertApiLead(t.app.db.pool, { state: 'NH' });
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/api/admin/api-leads/matching',
      cookies,
      payload: { filters: { state: 'ME' }, expectedCount: 25 },
    });
    expect(res.json()).toEqual({ deletedCount: 25 });
    expect(await count(`api_lead where state = 'ME'`)).toBe(0);
    expect(await count('api_lead where id = $1', [other.id])).toBe(1);
    const audit = (await t.app.inject({ url: '/api/admin/audit-log?limit=1', cookies })).json();
    expect(audit[0]).toMatchObject({ action: 'api_leads.delete', detail: { requested: 25, deleted: 25 } });
  });
});
