import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/partners/partner-key.service';
import { seedAdmin, signIn } from './support/admin';
import { leadBody } from './support/fixtures';
import { partnerLeadBody, postPartnerLead } from './support/partner';
import { startTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let cookies: Record<string, string>;
let partnerKey: string;

beforeAll(async () => {
  t = await startTestApp();
  await seedAdmin(t.app);
  cookies = await signIn(t.app);
  partnerKey = (await createApiKey(t.app.db.orm.em.fork(), 'DSR Partner')).secret;
});
afterAll(async () => {
  await t?.close();
});

const PHONE = '(555) 987-6543';

async function seedPerson(email: string) {
  const website = await t.app.inject({
    method: 'POST',
    url: '/api/submit-search',
    payload: { ...leadBody({ email, phone: PHONE }), pageUrl: 'https://example.org/' },
  });
  const api = await postPartnerLead(
    t.app,
    partnerKey,
    partnerLeadBody({ lastName: `Doe${Date.now()}`, phone: `+1 ${PHONE}` }),
  );
  expect(website.statusCode).toBe(200);
  expect(api.statusCode).toBe(201);
  return { websiteId: website.json().id as string, apiId: api.json().id as string };
}

const call = (method: 'POST' | 'DELETE', url: string, payload: object, withCookies = true) =>
  t.app.inject({ method, url, payload, ...(withCookies ? { cookies } : {}) });

const auditActions = async () =>
  (await t.app.db.pool.query('select action, detail from audit_log order by id')).rows as {
    action: string;
    detail: Record<string, unknown>;
  }[];

describe('data subject requests', () => {
  it('are for signed-in admins only', async () => {
    for (const [method, url] of [
      ['POST', '/api/admin/data-requests/lookup'],
      ['POST', '/api/admin/data-requests/export'],
      ['DELETE', '/api/admin/data-requests'],
    ] as const) {
      expect((await call(method, url, { email: 'a@b.co' }, false)).statusCode).toBe(401);
    }
  });

  it('need a valid e-mail or phone', async () => {
    const res = await call('POST', '/api/admin/data-requests/lookup', {});
    expect(res.statusCode).toBe(400);
    expect(res.json().fieldErrors).toEqual([
      { field: 'email', message: 'Enter an e-mail address or a phone number' },
    ]);
    expect((await call('POST', '/api/admin/data-requests/lookup', { phone: '12' })).statusCode).toBe(400);
  });

  it('find website leads, API leads, receipts and suppression entries by e-mail or phone', async () => {
    const email = `dsr.${Date.now()}@example.com`;
    const { websiteId, apiId } = await seedPerson(email);
    await t.app.inject({ method: 'POST', url: '/api/unsubscribe', payload: { email } });

    const byEmail = (
      await call('POST', '/api/admin/data-requests/lookup', { email: email.toUpperCase() })
    ).json();
    expect(byEmail.websiteLeads.map((l: { id: string }) => l.id)).toEqual([websiteId]);
    expect(byEmail.websiteLeads[0]).toMatchObject({
      email,
      optedOutAt: expect.any(String),
      doNotSell: false,
    });
    expect(byEmail.consentReceipts).toHaveLength(1);
    expect(byEmail.consentReceipts[0]).toMatchObject({ leadId: websiteId, pageUrl: 'https://example.org/' });
    expect(byEmail.apiLeads).toEqual([]);
    expect(byEmail.suppression).toEqual([
      { kind: 'email', source: 'unsubscribe_page', createdAt: expect.any(String) },
    ]);

    const byPhone = (await call('POST', '/api/admin/data-requests/lookup', { phone: '555.987.6543' })).json();
    expect(byPhone.websiteLeads.map((l: { id: string }) => l.id)).toContain(websiteId);
    expect(byPhone.apiLeads.map((l: { id: string }) => l.id)).toContain(apiId);
    expect(byPhone.apiLeads.find((l: { id: string }) => l.id === apiId).partner).toBe('DSR Partner');

    const exported = await call('POST', '/api/admin/data-requests/export', { email });
    expect(exported.statusCode).toBe(200);
    expect(exported.json()).toMatchObject({
      subject: { email, phone: null },
      generatedAt: expect.any(String),
    });
    expect(exported.json().websiteLeads[0].id).toBe(websiteId);

    const actions = (await auditActions()).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['privacy.lookup', 'privacy.export']));
  });

  it('delete everything in one action, keep only the suppression entries, and log it without the address', async () => {
    const email = `forget.${Date.now()}@example.com`;
    const { websiteId, apiId } = await seedPerson(email);
    const res = await call('DELETE', '/api/admin/data-requests', { email, phone: PHONE });
    expect(res.statusCode).toBe(200);
    expect(res.json().deleted).toMatchObject({
      websiteLeads: expect.any(Number),
      apiLeads: expect.any(Number),
    });
    expect(res.json().deleted.consentReceipts).toBeGreaterThanOrEqual(1);
    const q = async (sql: string, p: unknown[]) => (await t.app.db.pool.query(sql, p)).rows;
    expect(await q('select id from website_lead where id = $1', [websiteId])).toEqual([]);
    expect(await q('select id from api_lead where id = $1', [apiId])).toEqual([]);
    expect(await q('select id from consent_receipt where lead_id = $1', [websiteId])).toEqual([]);

    const after = (await call('POST', '/api/admin/data-requests/lookup', { email, phone: PHONE })).json();
    expect(after.counts).toEqual({ websiteLeads: 0, apiLeads: 0, consentReceipts: 0, suppression: 2 });

    const deletion = (await auditActions()).filter((a) => a.action === 'privacy.delete').at(-1);
    expect(deletion?.detail).toMatchObject({ emailHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(JSON.stringify(await auditActions())).not.toContain(email);

    // Suppressed for good: the person submitting again is flagged at once.
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/submit-search',
      payload: leadBody({ email }),
    });
    const [row] = await q('select opted_out_at from website_lead where id = $1', [again.json().id]);
    expect(row.opted_out_at).toBeInstanceOf(Date);
  });
});
