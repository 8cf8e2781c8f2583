import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAdmin, signIn } from './support/admin';
import { insertApiLead, insertWebsiteLead } from './support/leads';
import { startTestApp, type TestApp } from './support/test-app';

// A page per lead (issue 26): GET /api/admin/leads/{id} answers the lead whole (the list's row plus its
// captured attribution), and /audit-log the entries that concern it — its data requests, its delete —
// and nobody else's. The same for API leads.

let t: TestApp;
let cookies: Record<string, string>;

const get = (url: string, withCookies = cookies) => t.app.inject({ url, cookies: withCookies });
const call = (method: 'POST' | 'DELETE', url: string, payload: unknown) =>
  t.app.inject({ method, url, cookies, payload: payload as object });

beforeAll(async () => {
  t = await startTestApp();
  await seedAdmin(t.app);
  cookies = await signIn(t.app);
});
afterAll(async () => {
  await t?.close();
});

describe('the page /admin/leads/{id}', () => {
  it('is served as an app page (200), whatever the id; two segments deep is not a page (404)', async () => {
    for (const url of [`/admin/leads/${randomUUID()}`, '/admin/leads/not-a-uuid', '/admin/api-leads/x']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toContain('text/html');
    }
    expect((await t.app.inject({ url: `/admin/leads/${randomUUID()}/x` })).statusCode).toBe(404);
  });
});

describe('GET /api/admin/leads/:id', () => {
  it('answers the lead with every field of its list row, its attribution and country', async () => {
    const lead = await insertWebsiteLead(t.app.db.pool, { firstName: 'Page', lastName: 'Lead' });
    await t.app.db.pool.query(
      `update website_lead set attribution = $2, country = 'US', channel = 'Paid Search', source = 'google',
         medium = 'cpc', campaign = 'spring' where id = $1`,
      [lead.id, { utm_source: 'google', gclid: 'Cj0KCQ-abc', landingReferrer: 'https://www.google.com/' }],
    );
    const res = await get(`/api/admin/leads/${lead.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    // The same object the list answers for this lead, plus the details.
    const listed = (await get(`/api/admin/leads?search=${encodeURIComponent(lead.email)}`)).json();
    expect(listed).toHaveLength(1);
    expect(body).toEqual({
      ...listed[0],
      attribution: { utm_source: 'google', gclid: 'Cj0KCQ-abc', landingReferrer: 'https://www.google.com/' },
      country: 'US',
      // The raw signals behind its quality verdict (issue 33): none for a lead stored before it.
      signals: null,
    });
    expect(body).toMatchObject({ id: lead.id, firstName: 'Page', email: lead.email, campaign: 'spring' });
  });

  it('answers 404 "Lead not found" for an unknown id and 400 for one that is not a UUID', async () => {
    const unknown = await get(`/api/admin/leads/${randomUUID()}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: 'not_found', message: 'Lead not found' });
    const malformed = await get('/api/admin/leads/not-a-uuid');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().fieldErrors).toEqual([{ field: 'id', message: 'Lead id must be a UUID' }]);
  });

  it('needs a signed-in admin', async () => {
    const lead = await insertWebsiteLead(t.app.db.pool);
    expect((await get(`/api/admin/leads/${lead.id}`, {})).statusCode).toBe(401);
    expect((await get(`/api/admin/leads/${lead.id}/audit-log`, {})).statusCode).toBe(401);
    expect((await get(`/api/admin/api-leads/${lead.id}`, {})).statusCode).toBe(401);
  });
});

describe('GET /api/admin/leads/:id/audit-log', () => {
  it("lists the data requests about the lead's person and its delete, newest first, and no one else's", async () => {
    const lead = await insertWebsiteLead(t.app.db.pool, { phone: '(555) 777-1234' });
    const other = await insertWebsiteLead(t.app.db.pool, { phone: '(555) 888-0000' });
    expect((await get(`/api/admin/leads/${lead.id}/audit-log`)).json()).toEqual([]);

    // By e-mail (as typed, in capitals) and by phone (other punctuation): both concern the lead.
    const byEmail = await call('POST', '/api/admin/data-requests/lookup', {
      email: lead.email.toUpperCase(),
    });
    expect(byEmail.statusCode, byEmail.body).toBe(200);
    expect(
      (await call('POST', '/api/admin/data-requests/export', { phone: '555.777.1234' })).statusCode,
    ).toBe(200);
    // Someone else's lookup and someone else's delete do not.
    await call('POST', '/api/admin/data-requests/lookup', { email: other.email });
    await call('DELETE', `/api/admin/leads/${other.id}`, undefined);

    const trail = (await get(`/api/admin/leads/${lead.id}/audit-log`)).json();
    expect(trail.map((e: { action: string }) => e.action)).toEqual(['privacy.export', 'privacy.lookup']);
    expect(trail[0]).toMatchObject({ actor: 'alice', ipAddress: expect.any(String) });
    expect(Date.parse(trail[0].createdAt)).not.toBeNaN();

    // After its delete the lead is gone, and its trail still names the delete (what its page shows).
    expect((await call('DELETE', `/api/admin/leads/${lead.id}`, undefined)).statusCode).toBe(200);
    expect((await get(`/api/admin/leads/${lead.id}`)).statusCode).toBe(404);
    const after = (await get(`/api/admin/leads/${lead.id}/audit-log`)).json();
    expect(after[0]).toMatchObject({ action: 'leads.delete', actor: 'alice', detail: { id: lead.id } });

    // An id nobody ever used has an empty trail; a malformed one is a 400.
    expect((await get(`/api/admin/leads/${randomUUID()}/audit-log`)).json()).toEqual([]);
    expect((await get('/api/admin/leads/x/audit-log')).statusCode).toBe(400);
  });
});

describe('GET /api/admin/api-leads/:id', () => {
  it('answers the API lead with its partner, its trail, and 404 "API lead not found" once deleted', async () => {
    const { rows } = await t.app.db.pool.query<{ id: string }>(
      `insert into partner (id, name, created_at) values (gen_random_uuid(), 'Acme Leads', now()) returning id`,
    );
    const lead = await insertApiLead(t.app.db.pool, { phone: '512-555-0199' });
    await t.app.db.pool.query('update api_lead set partner_id = $2 where id = $1', [lead.id, rows[0]?.id]);

    const res = await get(`/api/admin/api-leads/${lead.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const listed = (await get('/api/admin/api-leads?search=512-555-0199')).json();
    expect(res.json()).toEqual({ ...listed[0], partner: 'Acme Leads', signals: null });

    // A website lead's id is not an API lead.
    const website = await insertWebsiteLead(t.app.db.pool);
    expect((await get(`/api/admin/api-leads/${website.id}`)).json()).toEqual({
      error: 'not_found',
      message: 'API lead not found',
    });

    await call('POST', '/api/admin/data-requests/lookup', { phone: '(512) 555-0199' });
    const before = (await get(`/api/admin/api-leads/${lead.id}/audit-log`)).json();
    expect(before.map((e: { action: string }) => e.action)).toEqual(['privacy.lookup']);
    await call('DELETE', `/api/admin/api-leads/${lead.id}`, undefined);
    const trail = (await get(`/api/admin/api-leads/${lead.id}/audit-log`)).json();
    expect(trail.map((e: { action: string }) => e.action)).toEqual(['api_leads.delete']);
    expect((await get(`/api/admin/api-leads/${lead.id}`)).statusCode).toBe(404);
  });
});
