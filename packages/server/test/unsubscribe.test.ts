import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leadBody } from './support/fixtures';
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

  it('answers 400 for a missing or malformed address', async () => {
    const missing = await t.app.inject({ method: 'POST', url: '/api/unsubscribe', payload: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fieldErrors).toEqual([{ field: 'email', message: 'Email address is required' }]);
    const bad = await unsubscribe('not-an-address');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('validation_error');
  });
});
