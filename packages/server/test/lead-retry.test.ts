import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leadBody } from './support/fixtures';
import { startTestApp, type TestApp } from './support/test-app';

// Issue 22, finding 9: after a kill -9, leads committed but unanswered came back as the visitor's retry,
// and got 409 "Already Submitted" for their own lead. A retry from the same visitor — the lead-owner
// cookie, or the same Idempotency-Key (the web app sends one per form) — within 24 hours gets the
// original answer, 200 with the same id; anyone else with that e-mail still gets the spec's 409.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const submit = (body: object, headers: Record<string, string> = {}, cookies: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/submit-search', payload: body, headers, cookies });
const ownerCookie = (res: { cookies: { name: string; value: string }[] }) =>
  res.cookies.find((c) => c.name === 'lead_owner')?.value;

describe('a retried submission', () => {
  it('with the same Idempotency-Key (the first answer lost) gets the original id and a working owner cookie', async () => {
    const body = leadBody();
    const key = 'k-7f3a9c2e1b5d4a60';
    const first = await submit(body, { 'idempotency-key': key });
    expect(first.statusCode).toBe(200);
    const { id } = first.json();
    // The answer never reached the visitor: no cookie in hand, the browser sends the same lead again.
    const retry = await submit(body, { 'idempotency-key': key });
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toEqual({ id });
    const cookie = ownerCookie(retry);
    expect(cookie).toBeTruthy();
    const beneficiary = await t.app.inject({
      method: 'PATCH',
      url: `/api/leads/${id}/beneficiary`,
      payload: { beneficiary: 'Child' },
      cookies: { lead_owner: cookie ?? '' },
    });
    expect(beneficiary.statusCode).toBe(200);
    const { rows } = await t.app.db.pool.query('select 1 from website_lead where lower(email) = lower($1)', [
      body.email,
    ]);
    expect(rows).toHaveLength(1);
  });

  it('from the browser holding the owner cookie gets the original id', async () => {
    const body = leadBody();
    const first = await submit(body);
    const { id } = first.json();
    const retry = await submit(body, {}, { lead_owner: ownerCookie(first) ?? '' });
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toEqual({ id });
  });

  it("from the same browser with another person's details and that e-mail is the spec's 409 (§8)", async () => {
    const body = leadBody();
    const first = await submit(body);
    const cookies = { lead_owner: ownerCookie(first) ?? '' };
    const other = await submit({ ...body, firstName: 'Someone', lastName: 'Else' }, {}, cookies);
    expect(other.statusCode).toBe(409);
    expect(other.json().error).toBe('duplicate_email');
    const keyed = { 'idempotency-key': 'same-form-key-0001' };
    const second = leadBody();
    expect((await submit(second, keyed)).statusCode).toBe(200);
    const changed = await submit({ ...second, zipCode: '10001' }, keyed);
    expect(changed.statusCode).toBe(409);
  });

  it('through tRPC (what the web app calls) with the Idempotency-Key header', async () => {
    const body = leadBody();
    const headers = { 'idempotency-key': 'web-form-0123456789abcdef' };
    const call = () => t.app.inject({ method: 'POST', url: '/api/trpc/lead.submit', payload: body, headers });
    const first = await call();
    expect(first.statusCode).toBe(200);
    const retry = await call();
    expect(retry.statusCode).toBe(200);
    expect(retry.json().result.data.id).toBe(first.json().result.data.id);
  });

  it('from another visitor with the same e-mail is still 409 duplicate_email', async () => {
    const body = leadBody();
    expect((await submit(body, { 'idempotency-key': 'visitor-one-000000' })).statusCode).toBe(200);
    for (const other of [
      submit(body),
      submit(body, { 'idempotency-key': 'visitor-two-000000' }),
      submit(body, {}, { lead_owner: 'not-the-owner-token' }),
    ]) {
      const res = await other;
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toBe('duplicate_email');
    }
  });

  it('after 24 hours is a duplicate again', async () => {
    const body = leadBody();
    const key = 'late-retry-00000000';
    const first = await submit(body, { 'idempotency-key': key });
    await t.app.db.pool.query(
      "update website_lead set created_at = now() - interval '25 hours' where id = $1",
      [first.json().id],
    );
    const retry = await submit(body, { 'idempotency-key': key });
    expect(retry.statusCode).toBe(409);
  });
});
