import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockKey } from '../src/platform/pg-transaction';
import { addSuppression, emailLockName } from '../src/privacy/suppression.service';
import { leadBody } from './support/fixtures';
import { partnerLeadBody, postPartnerLead } from './support/partner';
import { startTestApp, type TestApp } from './support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const unsubscribe = (email: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/unsubscribe', payload: { email } as object });
const submit = (body: object) => t.app.inject({ method: 'POST', url: '/api/submit-search', payload: body });
const optedOut = async (id: string) =>
  (await t.app.db.pool.query('select opted_out_at from website_lead where id = $1', [id])).rows[0]
    .opted_out_at;

describe('POST /api/unsubscribe', () => {
  it('answers identically for a known and an unknown address', async () => {
    const lead = leadBody();
    expect((await submit(lead)).statusCode).toBe(200);
    const known = await unsubscribe(lead.email);
    const unknown = await unsubscribe(`nobody.${Date.now()}@example.com`);
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.body).toBe(known.body);
    expect(unknown.headers['content-type']).toBe(known.headers['content-type']);
    expect(known.json()).toEqual({
      ok: true,
      message: 'If this address is on our lists, it will receive no more marketing messages from us.',
    });
  });

  it('flags the leads of the address (any letter case) and keeps only a hash of it', async () => {
    const lead = leadBody();
    const { id } = (await submit(lead)).json();
    expect(await optedOut(id)).toBeNull();
    await unsubscribe(`  ${lead.email.toUpperCase()} `);
    expect(await optedOut(id)).toBeInstanceOf(Date);
    const hash = createHash('sha256').update(lead.email.toLowerCase()).digest('hex');
    const rows = (await t.app.db.pool.query('select * from suppression')).rows;
    expect(rows).toContainEqual(
      expect.objectContaining({ kind: 'email', value_hash: hash, source: 'unsubscribe_page' }),
    );
    expect(JSON.stringify(rows)).not.toContain(lead.email);
  });

  it('is idempotent and flags a lead submitted after the opt-out', async () => {
    const email = `later.${Date.now()}@example.com`;
    expect((await unsubscribe(email)).statusCode).toBe(200);
    expect((await unsubscribe(email)).statusCode).toBe(200);
    const { id } = (await submit(leadBody({ email }))).json();
    expect(await optedOut(id)).toBeInstanceOf(Date);
  });

  it('never loses an opt-out that races a submission of the same address', async () => {
    for (let i = 0; i < 5; i++) {
      const email = `race.${i}.${Date.now()}@example.com`;
      const [sub, unsub] = await Promise.all([submit(leadBody({ email })), unsubscribe(email)]);
      expect(unsub.statusCode).toBe(200);
      expect(await optedOut(sub.json().id)).toBeInstanceOf(Date);
    }
  });

  it('flags a submission that waited for an opt-out of its address committed in the meantime', async () => {
    // The opt-out holds the address's lock and has written its suppression but not committed yet; the
    // submission must wait for it and then see it (not its own statement's older snapshot).
    const email = `waiting.${Date.now()}@example.com`;
    const optOut = await t.app.db.pool.connect();
    try {
      await optOut.query(`begin; select pg_advisory_xact_lock(${lockKey(emailLockName(email))})`);
      await addSuppression(optOut, { email }, 'unsubscribe_page');
      const pending = submit(leadBody({ email }));
      await new Promise((r) => setTimeout(r, 300));
      const stored = await t.app.db.pool.query(
        'select count(*)::int as n from website_lead where email = $1',
        [email],
      );
      expect(stored.rows[0].n).toBe(0); // still waiting for the lock
      await optOut.query('commit');
      const res = await pending;
      expect(res.statusCode).toBe(200);
      expect(await optedOut(res.json().id)).toBeInstanceOf(Date);
    } finally {
      optOut.release();
    }
  });

  it('limits each client to 30 opt-outs per 10 minutes (429 with Retry-After)', async () => {
    const from = (i: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/unsubscribe',
        payload: { email: `bulk.${i}@example.com` },
        remoteAddress: '198.51.100.7',
      });
    for (let i = 0; i < 30; i++) expect((await from(i)).statusCode).toBe(200);
    const limited = await from(30);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().error).toBe('rate_limited');
    // Another client is not affected.
    expect((await unsubscribe('other.client@example.com')).statusCode).toBe(200);
  });

  it('answers 400 for a missing or malformed address', async () => {
    const missing = await t.app.inject({ method: 'POST', url: '/api/unsubscribe', payload: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fieldErrors).toEqual([{ field: 'email', message: 'Email address is required' }]);
    const bad = await unsubscribe('not-an-address');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('validation_error');
  });
});

describe('opt-out flags in the admin tables and exports', () => {
  it('show opted-out and do-not-sell on website leads and opted-out on API leads', async () => {
    const { seedAdmin, signIn } = await import('./support/admin');
    const { createApiKey } = await import('../src/partners/partner-key.service');
    await seedAdmin(t.app);
    const cookies = await signIn(t.app);
    const optedOutLead = leadBody({ zipCode: '53703' });
    const { id: optedOutId } = (await submit(optedOutLead)).json();
    await unsubscribe(optedOutLead.email);
    const gpc = await t.app.inject({
      method: 'POST',
      url: '/api/submit-search',
      payload: leadBody({ zipCode: '53703' }),
      headers: { 'sec-gpc': '1' },
    });
    const gpcId = gpc.json().id;

    const list = (await t.app.inject({ url: '/api/admin/leads?state=WI', cookies })).json() as {
      id: string;
      optedOut: boolean;
      doNotSell: boolean;
    }[];
    expect(list.find((l) => l.id === optedOutId)).toMatchObject({ optedOut: true, doNotSell: false });
    expect(list.find((l) => l.id === gpcId)).toMatchObject({ optedOut: false, doNotSell: true });

    const csv = (await t.app.inject({ url: '/api/admin/export?state=WI', cookies })).body.replace(
      /^\uFEFF/,
      '',
    );
    const [header = '', ...rows] = csv.trim().split(/\r?\n/);
    const columns = header.split(',');
    const cell = (id: string, name: string) =>
      rows.find((r) => r.startsWith(id))?.split(',')[columns.indexOf(name)];
    expect(cell(optedOutId, 'optedOut')).toBe('true');
    expect(cell(gpcId, 'doNotSell')).toBe('true');
    expect(cell(gpcId, 'optedOut')).toBe('false');

    const { secret } = await createApiKey(t.app.db.orm.em.fork(), 'Flag Partner');
    const phone = '(608) 555-0199';
    const body = partnerLeadBody({ firstName: 'Al', lastName: 'Flag', city: 'Madison', state: 'WI', phone });
    const apiLead = await postPartnerLead(t.app, secret, body);
    await t.app.inject({
      method: 'DELETE',
      url: '/api/admin/data-requests',
      cookies,
      payload: { phone: '6085550199' },
    });
    // The lead was deleted with the request; a new one from the same phone arrives flagged.
    expect(
      (await t.app.db.pool.query('select 1 from api_lead where id = $1', [apiLead.json().id])).rows,
    ).toEqual([]);
    const again = await postPartnerLead(t.app, secret, body);
    expect(again.statusCode).toBe(201);
    const apiList = (await t.app.inject({ url: '/api/admin/api-leads?state=WI', cookies })).json() as {
      id: string;
      optedOut: boolean;
    }[];
    expect(apiList.find((l) => l.id === again.json().id)?.optedOut).toBe(true);
    const apiCsv = (await t.app.inject({ url: '/api/admin/export-api-leads?state=WI', cookies })).body;
    expect(apiCsv.split(/\r?\n/)[0]).toContain('optedOut');
  });
});
