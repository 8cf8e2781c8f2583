import { createHash } from 'node:crypto';
import { partnerLeadSchema } from '@uf/shared/partner.schema';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parse } from 'zod/v4/core';
import {
  authenticatePartner,
  createApiKey,
  KEY_CACHE_SECONDS,
  listApiKeys,
  revokeApiKey,
} from '../src/partners/partner-key.service';
import { createPartnerLeadWriter } from '../src/partners/partner-lead.service';
import { createQuality } from '../src/quality/quality.service';
import { partnerLeadBody, postPartnerLead } from './support/partner';
import { startTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let key: string;
let otherKey: string;
const RATE_LIMIT = 40;

beforeAll(async () => {
  t = await startTestApp({ PARTNER_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT) });
  key = (await createApiKey(t.app.db.orm.em.fork(), 'Acme Leads')).secret;
  otherKey = (await createApiKey(t.app.db.orm.em.fork(), 'Other Co')).secret;
});
afterAll(async () => {
  await t?.close();
});

const partnerLead = partnerLeadBody;
const post = (body: unknown, headers: Record<string, string> = {}, apiKey: string | null = key) =>
  postPartnerLead(t.app, apiKey, body, headers);

const countLeads = async () =>
  (await t.app.db.pool.query('select count(*)::int as n from api_lead')).rows[0].n as number;

describe('POST /api/partner/leads', () => {
  it('stores the lead with its partner and answers 201 {id, verdict, reasons}', async () => {
    const res = await post(partnerLead({ state: 'tx', beneficiary: 'Wife' }));
    expect(res.statusCode).toBe(201);
    const { id } = res.json();
    // Issue 33: the lead's quality verdict — no consent evidence (TrustedForm certificate) in this one.
    expect(res.json()).toEqual({ id, verdict: 'reject', reasons: ['CONSENT_MISSING'] });
    const row = (
      await t.app.db.pool.query(
        'select a.*, p.name as partner from api_lead a join partner p on p.id = a.partner_id where a.id = $1',
        [id],
      )
    ).rows[0];
    expect(row).toMatchObject({
      partner: 'Acme Leads',
      state: 'TX',
      birth_month: 2,
      birth_day: 14,
      birth_year: 1968,
      beneficiary: 'Wife',
      opted_out_at: null,
    });
  });

  it('answers 401 problem+json for a missing, unknown or revoked key', async () => {
    const missing = await post(partnerLead(), {}, null);
    expect(missing.statusCode).toBe(401);
    expect(missing.headers['content-type']).toContain('application/problem+json');
    expect(missing.headers['www-authenticate']).toContain('Bearer');
    expect(missing.json()).toMatchObject({
      status: 401,
      code: 'unauthorized',
      title: 'Missing or invalid API key',
    });

    expect((await post(partnerLead(), {}, 'ufk_not-a-real-key')).statusCode).toBe(401);

    const created = await createApiKey(t.app.db.orm.em.fork(), 'Short Lived');
    expect((await post(partnerLead(), {}, created.secret)).statusCode).toBe(201);
    await revokeApiKey(t.app.db.orm.em.fork(), created.keyPrefix);
    const revoked = await post(partnerLead(), {}, created.secret);
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json().detail).toBe('The API key is not valid or has been revoked');
    const listed = (await listApiKeys(t.app.db.orm.em.fork())).find((k) => k.id === created.keyId);
    expect(listed?.revokedAt).toBeInstanceOf(Date);
    expect(listed?.lastUsedAt).toBeInstanceOf(Date);
  });

  it('honours a revocation made by another process within KEY_CACHE_SECONDS', async () => {
    const created = await createApiKey(t.app.db.orm.em.fork(), 'Revoked Elsewhere');
    expect((await post(partnerLead(), {}, created.secret)).statusCode).toBe(201);
    // Another process (the CLI on another machine) revokes it: this process has the key cached.
    await t.app.db.pool.query('update partner_api_key set revoked_at = now() where id = $1', [created.keyId]);
    expect((await post(partnerLead(), {}, created.secret)).statusCode).toBe(201);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + (KEY_CACHE_SECONDS + 1) * 1000 });
    try {
      expect((await post(partnerLead(), {}, created.secret)).statusCode).toBe(401);
    } finally {
      vi.useRealTimers();
    }
  });

  it('stores only a SHA-256 of each key, and a short prefix to tell keys apart', async () => {
    const { rows } = await t.app.db.pool.query('select * from partner_api_key');
    const mine = rows.find((r) => key.startsWith(r.key_prefix));
    expect(mine.key_hash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(mine.key_prefix.length).toBeLessThan(key.length / 2);
    expect(JSON.stringify(rows)).not.toContain(key);
  });

  it('lists every invalid and unknown field in a 400 problem', async () => {
    const before = await countLeads();
    const res = await post(
      partnerLead({
        firstName: '',
        state: 'XX',
        phone: '12345',
        birthMonth: 13,
        birthDay: 0,
        birthYear: 1930,
        beneficiary: 'Neighbour',
        zip: '73301',
      }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    const problem = res.json();
    expect(problem).toMatchObject({
      type: '/api/docs#problem-validation_error',
      title: 'Invalid request',
      status: 400,
      code: 'validation_error',
      instance: '/api/partner/leads',
    });
    const fields = problem.errors.map((e: { field: string }) => e.field).sort();
    expect(fields).toEqual(
      ['beneficiary', 'birthDay', 'birthMonth', 'birthYear', 'firstName', 'phone', 'state', 'zip'].sort(),
    );
    expect(problem.errors).toContainEqual({
      field: 'state',
      message: 'state must be a two-letter US state code, e.g. CA',
      pointer: '/state',
    });
    expect(await countLeads()).toBe(before);
  });

  it('refuses a date that does not exist and a body that is not JSON, as problems', async () => {
    const feb30 = await post(partnerLead({ birthMonth: 2, birthDay: 30 }));
    expect(feb30.statusCode).toBe(400);
    expect(feb30.json().errors).toEqual([
      { field: 'birthDay', message: 'birthDay is not a day of that month', pointer: '/birthDay' },
    ]);
    const broken = await t.app.inject({
      method: 'POST',
      url: '/api/partner/leads',
      payload: '{"firstName":',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.headers['content-type']).toContain('application/problem+json');
    expect(broken.json()).toMatchObject({ status: 400, code: 'validation_error' });
  });

  it('answers a retry with the same Idempotency-Key with the same id and no second lead', async () => {
    const body = partnerLead();
    const idem = crypto.randomUUID();
    const first = await post(body, { 'idempotency-key': idem });
    expect(first.statusCode).toBe(201);
    const before = await countLeads();
    const again = await post({ ...body }, { 'idempotency-key': idem });
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await countLeads()).toBe(before);
  });

  it('makes one lead from 10 concurrent retries of one Idempotency-Key', async () => {
    const body = partnerLead();
    const idem = crypto.randomUUID();
    const before = await countLeads();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => post(body, { 'idempotency-key': idem })),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(10).fill(201));
    expect(new Set(results.map((r) => r.json().id)).size).toBe(1);
    expect(await countLeads()).toBe(before + 1);
  });

  it('gives every request of a mixed burst its own answer: new leads, retries of one key, duplicates', async () => {
    // Sent at once, they are written in shared batches (issue 14); each rule still sees the lead before it.
    const burst = (await createApiKey(t.app.db.orm.em.fork(), 'Burst Sender')).secret;
    const send = (body: unknown, headers: Record<string, string> = {}) => post(body, headers, burst);
    const idem = crypto.randomUUID();
    const retried = partnerLead({ lastName: 'Retry' });
    const duplicate = partnerLead({ lastName: 'Twice' });
    const before = await countLeads();
    const sends = [
      ...Array.from({ length: 10 }, () => send(partnerLead({ lastName: 'Burst' }))),
      ...Array.from({ length: 5 }, () => send(retried, { 'idempotency-key': idem })),
      ...Array.from({ length: 5 }, () => send(duplicate)),
    ];
    const results = await Promise.all(sends);
    const codes = results.map((r) => r.statusCode);
    expect(codes.slice(0, 10)).toEqual(Array(10).fill(201));
    expect(new Set(results.slice(0, 10).map((r) => r.json().id)).size).toBe(10);
    expect(codes.slice(10, 15)).toEqual(Array(5).fill(201));
    expect(new Set(results.slice(10, 15).map((r) => r.json().id)).size).toBe(1);
    expect(results.slice(10, 15).filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(4);
    expect(codes.slice(15).sort()).toEqual([201, 409, 409, 409, 409]);
    expect(await countLeads()).toBe(before + 12);
  });

  it('keeps both rules inside one batch: leads that share a lock are never written side by side', async () => {
    // Called in one tick: the first lead is written alone, the other 14 queue and form the next batch,
    // from which the writer keeps leads that share a lock apart (GroupCommitter keysOf).
    const { secret } = await createApiKey(t.app.db.orm.em.fork(), 'Batch Partner');
    const partner = await authenticatePartner(t.app.db.pool, `Bearer ${secret}`);
    const writer = createPartnerLeadWriter(
      t.app.db.pool,
      createQuality(t.app.db.pool, () => new Date()),
    );
    const lead = (lastName: string) => parse(partnerLeadSchema, partnerLead({ lastName }));
    const idem = crypto.randomUUID();
    const retried = lead('Again');
    const twin = lead('Twin');
    const before = await countLeads();
    const results = await Promise.allSettled([
      writer.create(partner, lead('Opener'), {}),
      ...Array.from({ length: 4 }, () => writer.create(partner, lead('Fresh'), {})),
      ...Array.from({ length: 5 }, () => writer.create(partner, retried, { idempotencyKey: idem })),
      ...Array.from({ length: 5 }, () => writer.create(partner, twin, {})),
    ]);
    await writer.close();
    const ok = (r: (typeof results)[number]) => (r.status === 'fulfilled' ? r.value : undefined);
    expect(results.slice(0, 5).every((r) => ok(r)?.replayed === false)).toBe(true);
    expect(new Set(results.slice(5, 10).map((r) => ok(r)?.id)).size).toBe(1);
    expect(results.slice(5, 10).filter((r) => ok(r)?.replayed)).toHaveLength(4);
    const twins = results.slice(10);
    expect(twins.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(
      twins.filter((r) => r.status === 'rejected' && (r.reason as { code?: string }).code === 'conflict'),
    ).toHaveLength(4);
    expect(await countLeads()).toBe(before + 7);
  });

  it('answers 422 when an Idempotency-Key is reused for a different lead, 400 for a malformed key', async () => {
    const idem = crypto.randomUUID();
    expect((await post(partnerLead(), { 'idempotency-key': idem })).statusCode).toBe(201);
    const reused = await post(partnerLead(), { 'idempotency-key': idem });
    expect(reused.statusCode).toBe(422);
    expect(reused.json()).toMatchObject({ code: 'unprocessable', status: 422 });
    const malformed = await post(partnerLead(), { 'idempotency-key': 'has spaces in it' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().errors[0]).toMatchObject({ field: 'Idempotency-Key' });
  });

  it('keys are per partner: another partner may use the same Idempotency-Key', async () => {
    const idem = crypto.randomUUID();
    const a = await post(partnerLead(), { 'idempotency-key': idem });
    const b = await post(partnerLead(), { 'idempotency-key': idem }, otherKey);
    expect(a.statusCode).toBe(201);
    expect(b.statusCode).toBe(201);
    expect(b.json().id).not.toBe(a.json().id);
  });

  it('answers 409 with the existing id for the same phone and last name from the same partner within 24 h', async () => {
    const body = partnerLead({ lastName: 'Duplicate' });
    const first = await post(body);
    expect(first.statusCode).toBe(201);
    const dup = await post({ ...body, lastName: 'DUPLICATE', phone: `+1 ${body.phone}`, firstName: 'Other' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ status: 409, code: 'conflict', existingId: first.json().id });
    // Another partner, or another last name, is not a duplicate.
    expect((await post(body, {}, otherKey)).statusCode).toBe(201);
    expect((await post({ ...body, lastName: 'Different' })).statusCode).toBe(201);
    // Older than 24 hours: accepted again.
    await t.app.db.pool.query("update api_lead set created_at = now() - interval '25 hours' where id = $1", [
      first.json().id,
    ]);
    expect((await post(body)).statusCode).toBe(201);
  });

  it('keeps the duplicate policy under concurrency: 5 simultaneous sends make one lead', async () => {
    const body = partnerLead({ lastName: 'Racer' });
    const results = await Promise.all(Array.from({ length: 5 }, () => post(body)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
  });

  it('answers 429 with Retry-After once a key spends its per-minute limit', async () => {
    const limited = await createApiKey(t.app.db.orm.em.fork(), 'Busy Partner');
    let last = await post(partnerLead(), {}, limited.secret);
    expect(last.headers['ratelimit-limit']).toBe(String(RATE_LIMIT));
    for (let i = 1; i < RATE_LIMIT; i++) last = await post({}, {}, limited.secret);
    expect(last.statusCode).toBe(400);
    const over = await post(partnerLead(), {}, limited.secret);
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(over.headers['content-type']).toContain('application/problem+json');
    expect(over.json()).toMatchObject({ status: 429, code: 'rate_limited' });
    // Other keys are unaffected.
    expect((await post(partnerLead(), {}, otherKey)).statusCode).toBe(201);
  });

  it('counts requests that arrive at once exactly: each has its own place, the limit holds', async () => {
    // Concurrent hits on one key go to the database together (issue 14); each still gets its own count.
    const busy = await createApiKey(t.app.db.orm.em.fork(), 'Burst Partner');
    const results = await Promise.all(
      Array.from({ length: RATE_LIMIT + 10 }, () => post({}, {}, busy.secret)),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 400)).toHaveLength(RATE_LIMIT);
    expect(codes.filter((c) => c === 429)).toHaveLength(10);
    const remaining = results.map((r) => Number(r.headers['ratelimit-remaining'])).sort((a, b) => b - a);
    expect(remaining.slice(0, RATE_LIMIT)).toEqual(
      Array.from({ length: RATE_LIMIT }, (_, i) => RATE_LIMIT - 1 - i),
    );
  });

  it('flags an API lead whose phone is on the suppression list', async () => {
    const body = partnerLead();
    const { addSuppression } = await import('../src/privacy/suppression.service');
    await addSuppression(t.app.db.pool, { phone: body.phone }, 'data_request');
    const { id } = (await post(body)).json();
    const row = (await t.app.db.pool.query('select opted_out_at from api_lead where id = $1', [id])).rows[0];
    expect(row.opted_out_at).toBeInstanceOf(Date);
  });
});
