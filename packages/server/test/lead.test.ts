import { createTRPCClient, httpLink } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '../src/trpc/router';
import { leadBody } from './support/fixtures';
import { startTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let baseUrl: string;

beforeAll(async () => {
  t = await startTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  await t?.close();
});

async function submit(body: unknown, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'POST', url: '/api/submit-search', payload: body as object, headers });
}

function ownerCookie(res: { cookies: { name: string; value: string }[] }): Record<string, string> {
  const c = res.cookies.find((x) => x.name === 'lead_owner');
  if (!c) throw new Error('the submit answer set no lead_owner cookie');
  return { lead_owner: c.value };
}

describe('POST /api/submit-search', () => {
  it('stores the lead with the state derived from the ZIP and answers {id}', async () => {
    // A complete consent receipt (page URL, user agent, IP) makes the lead TCPA-compliant (ADR 030).
    const res = await submit(leadBody({ zipCode: '90210', pageUrl: 'https://example.org/' }), {
      'user-agent': 'vitest',
    });
    expect(res.statusCode).toBe(200);
    const { id } = res.json();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const row = await t.app.db.pool.query('select * from website_lead where id = $1', [id]);
    expect(row.rows[0]).toMatchObject({
      state: 'CA',
      consent_given: true,
      lead_source: 'website',
      ip_address: '127.0.0.1',
      tcpa_compliant: 'true',
      birth_year: 1970,
    });
    expect(row.rows[0].opt_in_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(row.rows[0].opt_in_time).toMatch(/^\d{2}:\d{2}:\d{2}$/);
  });

  it('stores an unknown state as null for DC, territories and military ZIPs', async () => {
    const res = await submit(leadBody({ zipCode: '20001' }));
    const { id } = res.json();
    const read = await t.app.inject({ method: 'GET', url: `/api/leads/${id}` });
    expect(read.json()).toEqual({ id, state: null });
  });

  it('answers 409 duplicate_email for the same e-mail in any letter case', async () => {
    const body = leadBody();
    expect((await submit(body)).statusCode).toBe(200);
    const again = await submit({ ...body, email: body.email.toUpperCase() });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      error: 'duplicate_email',
      message:
        'This email address has already been submitted. Each person can only submit their information once.',
    });
  });

  it('answers 400 age_restriction outside 1940–1994', async () => {
    for (const birthYear of ['1939', '1995', '2005']) {
      const res = await submit(leadBody({ birthYear }));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        error: 'age_restriction',
        message: 'Sorry, we only serve individuals born between 1940 and 1994',
      });
    }
    expect((await submit(leadBody({ birthYear: '1940' }))).statusCode).toBe(200);
    expect((await submit(leadBody({ birthYear: '1994' }))).statusCode).toBe(200);
  });

  it('answers 400 with a list of field errors for other bad input', async () => {
    const res = await submit(
      leadBody({ firstName: '', zipCode: '123', email: 'nope', phone: '12', consentGiven: 'false' }),
    );
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error).toBe('validation_error');
    expect(body.fieldErrors).toEqual(
      expect.arrayContaining([
        { field: 'firstName', message: 'First name is required' },
        { field: 'zipCode', message: 'ZIP code must be at least 5 digits' },
        {
          field: 'email',
          message: 'Please enter a valid email address (e.g., support@unclaimedfundsfinder.com)',
        },
        { field: 'phone', message: 'Please enter a valid phone number (e.g., (555) 123-4567)' },
        { field: 'consentGiven', message: 'You must consent to continue' },
      ]),
    );
  });

  it('answers 400 JSON for a body that is not JSON or not an object', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/submit-search',
      payload: '{"firstName":',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('validation_error');
    const empty = await t.app.inject({ method: 'POST', url: '/api/submit-search' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toBe('validation_error');
  });

  it('makes exactly one lead from 20 simultaneous submissions of one e-mail', async () => {
    const body = leadBody();
    const results = await Promise.all(Array.from({ length: 20 }, () => submit(body)));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(19);
    const count = await t.app.db.pool.query(
      'select count(*)::int as n from website_lead where lower(email) = $1',
      [body.email.toLowerCase()],
    );
    expect(count.rows[0].n).toBe(1);
  });

  it('makes exactly 200 leads from 200 simultaneous distinct submissions', async () => {
    const before = (await t.app.db.pool.query('select count(*)::int as n from website_lead')).rows[0].n;
    const results = await Promise.all(Array.from({ length: 200 }, () => submit(leadBody())));
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    const after = (await t.app.db.pool.query('select count(*)::int as n from website_lead')).rows[0].n;
    expect(after - before).toBe(200);
  });
});

describe('GET /api/leads/{id}', () => {
  it('returns only id and state', async () => {
    const { id } = (await submit(leadBody({ zipCode: '10001' }))).json();
    const res = await t.app.inject({ method: 'GET', url: `/api/leads/${id}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id, state: 'NY' });
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    const missing = await t.app.inject({ method: 'GET', url: `/api/leads/${crypto.randomUUID()}` });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'not_found', message: 'Lead not found' });
    const malformed = await t.app.inject({ method: 'GET', url: '/api/leads/123' });
    expect(malformed.statusCode).toBe(400);
  });
});

describe('PATCH /api/leads/{id}/beneficiary', () => {
  it('sets the beneficiary for the browser that submitted the lead', async () => {
    const sub = await submit(leadBody());
    const { id } = sub.json();
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/leads/${id}/beneficiary`,
      payload: { beneficiary: 'Wife' },
      cookies: ownerCookie(sub),
    });
    expect(res.statusCode).toBe(200);
    const row = await t.app.db.pool.query('select beneficiary from website_lead where id = $1', [id]);
    expect(row.rows[0].beneficiary).toBe('Wife');
  });

  it("accepts 'Not specified' and rejects anything outside the 7 options", async () => {
    const sub = await submit(leadBody());
    const { id } = sub.json();
    const skip = await t.app.inject({
      method: 'PATCH',
      url: `/api/leads/${id}/beneficiary`,
      payload: { beneficiary: 'Not specified' },
      cookies: ownerCookie(sub),
    });
    expect(skip.statusCode).toBe(200);
    const bad = await t.app.inject({
      method: 'PATCH',
      url: `/api/leads/${id}/beneficiary`,
      payload: { beneficiary: 'Neighbour' },
      cookies: ownerCookie(sub),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('validation_error');
  });

  it('refuses anyone but the submitting browser', async () => {
    const sub = await submit(leadBody());
    const { id } = sub.json();
    const noCookie = await t.app.inject({
      method: 'PATCH',
      url: `/api/leads/${id}/beneficiary`,
      payload: { beneficiary: 'Child' },
    });
    expect(noCookie.statusCode).toBe(404);
    const otherBrowser = await submit(leadBody());
    const wrongCookie = await t.app.inject({
      method: 'PATCH',
      url: `/api/leads/${id}/beneficiary`,
      payload: { beneficiary: 'Child' },
      cookies: ownerCookie(otherBrowser),
    });
    expect(wrongCookie.statusCode).toBe(404);
    const row = await t.app.db.pool.query('select beneficiary from website_lead where id = $1', [id]);
    expect(row.rows[0].beneficiary).toBeNull();
  });
});

describe('the tRPC surface answers like the REST surface', () => {
  it('submits, reads and rejects duplicates through typed procedures', async () => {
    const client = createTRPCClient<AppRouter>({ links: [httpLink({ url: `${baseUrl}/api/trpc` })] });
    const body = leadBody({ zipCode: '60601' });
    const { id } = await client.lead.submit.mutate(body);
    expect(await client.lead.byId.query({ id })).toEqual({ id, state: 'IL' });
    await expect(client.lead.submit.mutate(body)).rejects.toMatchObject({
      data: { httpStatus: 409, app: { error: 'duplicate_email' } },
    });
    await expect(client.lead.submit.mutate({ ...leadBody(), birthYear: '1930' })).rejects.toMatchObject({
      data: { httpStatus: 400, app: { error: 'age_restriction' } },
    });
  });
});

describe('server basics', () => {
  it('answers /healthz and /readyz', async () => {
    expect((await t.app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await t.app.inject({ url: '/readyz' })).statusCode).toBe(200);
  });

  it('answers unknown /api paths with JSON 404', async () => {
    const res = await t.app.inject({ url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.json().error).toBe('not_found');
  });
});
