import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { reportIdleBuyers } from '../src/buyers/buyer-health';
import { createApiKey } from '../src/partners/partner-key.service';
import { visitorLeadBody } from './support/fixtures';
import { partnerLeadBody, postPartnerLead } from './support/partner';
import type { Received, Receiver } from './support/webhook-receiver';
import { startWebhookTestbed, type WebhookTestbed } from './support/webhooks';

// Lead buyers (issue 34, ADR 069) against local receivers that imitate real posting specs: a PX-like JSON
// buyer, a boberdoo-like form buyer answering XML, a LeadExec-like JSON buyer with an api-key header.
// Leads are submitted as visitors (form token, seconds on the page): only accepted leads are sold.

let bed: WebhookTestbed;
let rx: Receiver;
const api: WebhookTestbed['api'] = (...args) => bed.api(...args);

beforeAll(async () => {
  bed = await startWebhookTestbed();
  rx = bed.rx;
});
afterAll(async () => {
  await bed?.close();
});

type Sale = {
  status: string;
  buyerId?: string;
  buyerName?: string;
  price?: number;
  attempts: {
    buyerName: string;
    outcome: string;
    reason: string | null;
    price: number | null;
    request: unknown;
  }[];
};

let paths = 0;
const nextPath = (name: string) => {
  paths += 1;
  return `/${name}-${paths}`;
};

/** Answers each request at `path` with the next of `answers` (the last one repeats). */
function answer(path: string, answers: { status?: number; body: string; type?: string; delayMs?: number }[]) {
  let n = 0;
  rx.on(path, (_req, res) => {
    const a = answers[Math.min(n, answers.length - 1)] as (typeof answers)[number];
    n += 1;
    setTimeout(() => {
      res.writeHead(a.status ?? 200, { 'content-type': a.type ?? 'application/json' });
      res.end(a.body);
    }, a.delayMs ?? 0);
  });
}

function pxBuyer(path: string, overrides: Record<string, unknown> = {}) {
  return {
    name: `PX-like ${path}`,
    priority: 10,
    price: 5,
    delivery: { kind: 'http', method: 'POST', url: `${rx.base}${path}`, encoding: 'json' },
    fields: [
      { to: 'ApiToken', value: 'px-secret-token-123' },
      { to: 'ContactData.FirstName', from: 'firstName' },
      { to: 'ContactData.LastName', from: 'lastName' },
      { to: 'ContactData.ZipCode', from: 'zipCode' },
      { to: 'ContactData.Phone', from: 'phone', transforms: ['digits'] },
      { to: 'Person.BirthDate', from: 'birthDate', transforms: ['date:YYYY-MM-DD'] },
    ],
    responseRules: [
      { when: { json: 'Success', equals: true }, outcome: 'accepted', priceFrom: 'Payout' },
      { when: { json: 'Success', equals: false }, outcome: 'rejected', reasonFrom: 'Message' },
    ],
    ...overrides,
  };
}

function boberdooBuyer(path: string, overrides: Record<string, unknown> = {}) {
  return {
    name: `boberdoo-like ${path}`,
    priority: 20,
    price: 4,
    delivery: { kind: 'http', method: 'POST', url: `${rx.base}${path}`, encoding: 'form' },
    fields: [
      { to: 'Key', value: 'bob-key' },
      { to: 'API_Action', value: 'pingPostLead' },
      { to: 'First_Name', from: 'firstName' },
      { to: 'Zip', from: 'zipCode' },
      { to: 'State', from: 'state' },
      { to: 'Phone', from: 'phone', transforms: ['digits'] },
    ],
    responseRules: [
      {
        when: { xml: 'response.status', equals: 'Matched' },
        outcome: 'accepted',
        priceFrom: 'response.best_bid',
        refFrom: 'response.lead_id',
      },
      {
        when: { xml: 'response.status', equals: 'Unmatched' },
        outcome: 'rejected',
        reasonFrom: 'response.reason',
      },
    ],
    ...overrides,
  };
}

function leadExecBuyer(path: string, overrides: Record<string, unknown> = {}) {
  return {
    name: `LeadExec-like ${path}`,
    priority: 30,
    price: 3,
    delivery: {
      kind: 'http',
      method: 'POST',
      url: `${rx.base}${path}`,
      encoding: 'json',
      secretHeaders: { 'api-key': 'le-0123456789abcdef' },
    },
    fields: [
      { to: 'FirstName', from: 'firstName' },
      { to: 'Email', from: 'email', transforms: ['lower'] },
      { to: 'DOB', from: 'birthDate', transforms: ['date:MM/DD/YYYY'] },
    ],
    responseRules: [
      { when: { json: 'ResponseType', equals: 0 }, outcome: 'accepted', refFrom: 'LeadId' },
      { when: { json: 'ResponseType', equals: 6 }, outcome: 'duplicate', reasonFrom: 'Message' },
      { when: { json: 'ResponseType', equals: 8 }, outcome: 'rejected', reasonFrom: 'Message' },
    ],
    ...overrides,
  };
}

async function createBuyer(body: Record<string, unknown>) {
  const res = await api('POST', '/api/admin/buyers', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; name: string } & Record<string, unknown>;
}

/** Pauses every buyer: each test sets up the waterfall it needs. */
async function pauseAll() {
  const list = (await api('GET', '/api/admin/buyers')).json() as { id: string; status: string }[];
  for (const b of list) {
    if (b.status === 'active') await api('PATCH', `/api/admin/buyers/${b.id}`, { status: 'paused' });
  }
}

async function submitLead(overrides: Record<string, string> = {}) {
  const res = await bed.submit(visitorLeadBody(overrides));
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { id: string }).id;
}

/** The lead's sale once it is no longer pending (waited on, never slept). */
async function settledSale(leadId: string, ms = 20_000): Promise<Sale> {
  const deadline = Date.now() + ms;
  for (;;) {
    const res = await api('GET', `/api/admin/leads/${leadId}/sale`);
    expect(res.statusCode, res.body).toBe(200);
    const sale = res.json() as Sale;
    const settled = sale.status !== 'pending' && (sale.status !== 'not_for_sale' || sale.attempts.length > 0);
    if (settled || Date.now() > deadline) return sale;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The attempts of the buyers a test set up (the earlier tests' buyers are paused, and skipped as such). */
const live = (sale: Sale) => sale.attempts.filter((a) => !(a.outcome === 'skipped' && a.reason === 'paused'));

describe('buyers API', () => {
  it('creates a buyer and never shows its secrets', async () => {
    const path = nextPath('le');
    const created = await createBuyer(
      leadExecBuyer(path, {
        delivery: {
          kind: 'http',
          method: 'POST',
          url: `${rx.base}${path}`,
          encoding: 'json',
          headers: { 'x-source': 'uf', authorization: 'Bearer abcdef0123456789xyz' },
          secretHeaders: { 'api-key': 'le-0123456789abcdef' },
        },
        status: 'paused',
      }),
    );
    const text = JSON.stringify((await api('GET', '/api/admin/buyers')).json());
    expect(text).not.toContain('le-0123456789abcdef');
    expect(text).not.toContain('abcdef0123456789xyz');
    expect(created.delivery).toMatchObject({
      headers: { 'x-source': 'uf', authorization: '••••' },
      secretHeaders: { 'api-key': '••••' },
    });
    // Sent back masked, the secret keeps its stored value.
    const patched = await api('PATCH', `/api/admin/buyers/${created.id}`, {
      delivery: created.delivery,
      price: 3.25,
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({
      price: 3.25,
      status: 'paused',
      pausedReason: 'Paused by an admin',
    });
  });

  it.each([
    [{ fields: [{ to: 'X', from: 'firstName', transforms: ['rot13'] }] }, 'unknown transform'],
    [{ fields: [{ to: 'X', from: 'shoeSize' }] }, 'unknown lead field'],
    [{ responseRules: [{ when: { regex: '([' }, outcome: 'accepted' }] }, 'not a valid regular expression'],
    // Patterns run on RE2 (ADR 072): what it cannot run in linear time is refused, naming the field and why.
    [
      { responseRules: [{ when: { regex: '(\\w+)-\\1' }, outcome: 'accepted' }] },
      '"field":"responseRules.0.when.regex","message":"responseRules: when.regex uses a backreference',
    ],
    [
      {
        responseRules: [
          { when: { status: 200 }, outcome: 'rejected' },
          { when: { json: 'status', matches: '^(?!rejected)' }, outcome: 'accepted' },
        ],
      },
      '"field":"responseRules.1.when.matches","message":"responseRules: when.matches uses lookahead or lookbehind',
    ],
    [
      {
        responseRules: [
          { when: { regex: '[a-z]{290}' }, outcome: 'accepted' },
          { when: { regex: '[a-z]{290}' }, outcome: 'accepted' },
          { when: { regex: '[a-z]{290}' }, outcome: 'accepted' },
          { when: { regex: '[a-z]{290}' }, outcome: 'accepted' },
        ],
      },
      'responseRules: the patterns are too complex together',
    ],
    [
      { schedule: { timeZone: 'Mars/Olympus', windows: [{ days: ['mon'], start: '09:00', end: '17:00' }] } },
      'schedule.timeZone',
    ],
    [
      {
        schedule: { timeZone: 'America/Chicago', windows: [{ days: ['mon'], start: '09:00', end: '09:00' }] },
      },
      'end equals start',
    ],
    [{ caps: [{ period: 'day', leads: -1 }] }, 'caps: leads'],
    // Money is kept in whole cents: a third decimal would be rounded by someone, so it is refused.
    [{ price: 8.555 }, 'price must be a number of dollars from 0 to 100000, at most 2 decimals'],
    [{ caps: [{ period: 'day', amount: 10.001 }] }, 'caps: amount must be a number of dollars'],
    [
      { delivery: { kind: 'http', method: 'POST', url: 'ftp://example.com/x', encoding: 'json' } },
      'delivery.url',
    ],
  ])('answers 400 naming the field for %j', async (overrides, words) => {
    const res = await api('POST', '/api/admin/buyers', pxBuyer('/never', overrides));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.body).toContain(words);
  });

  it('still shows a buyer stored with a rule RE2 refuses, so that an admin can fix it (ADR 072)', async () => {
    const sql = new pg.Client({ connectionString: bed.t.db.url });
    await sql.connect();
    const config = pxBuyer('/never', {
      status: 'paused',
      responseRules: [{ when: { regex: '(?<!un)matched' }, outcome: 'accepted' }],
    });
    const { rows } = await sql.query<{ id: string }>(
      `insert into buyer (id, name, status, priority, price_cents, config) values (gen_random_uuid(), $1, 'paused', 1, 100, $2) returning id`,
      [
        'stored before RE2',
        { ...config, name: undefined, status: undefined, priority: undefined, price: undefined },
      ],
    );
    await sql.end();
    const id = rows[0]?.id;
    const shown = await api('GET', `/api/admin/buyers/${id}`);
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json()).toMatchObject({ responseRules: [{ when: { regex: '(?<!un)matched' } }] });
    expect((await api('GET', '/api/admin/buyers')).statusCode).toBe(200);
    // Saving it again asks for a rule RE2 can run.
    const saved = await api('PATCH', `/api/admin/buyers/${id}`, {
      responseRules: shown.json().responseRules,
    });
    expect(saved.statusCode).toBe(400);
    expect(saved.body).toContain('"field":"responseRules.0.when.regex"');
  });

  it('needs an admin session', async () => {
    const res = await bed.t.app.inject({ method: 'GET', url: '/api/admin/buyers' });
    expect(res.statusCode).toBe(401);
  });
});

describe('selling a lead', () => {
  it('sells to a PX-like JSON buyer at the payout its answer names, with the exact request', async () => {
    await pauseAll();
    const path = nextPath('px');
    answer(path, [{ body: '{"Success":true,"Payout":8.5}' }]);
    const buyer = await createBuyer(pxBuyer(path));
    const leadId = await submitLead({
      firstName: 'Maria',
      zipCode: '60614',
      phone: '(312) 472-0142',
      birthYear: '1961',
      birthMonth: '3',
      birthDay: '9',
    });
    const sale = await settledSale(leadId);
    expect(sale).toMatchObject({ status: 'sold', buyerId: buyer.id, price: 8.5 });
    const [received] = rx.at(path);
    expect(received?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(received?.body ?? '')).toEqual({
      ApiToken: 'px-secret-token-123',
      ContactData: {
        FirstName: 'Maria',
        LastName: expect.any(String),
        ZipCode: '60614',
        Phone: '3124720142',
      },
      Person: { BirthDate: '1961-03-09' },
    });
    // The log keeps the request with the token masked.
    expect(JSON.stringify(sale.attempts)).not.toContain('px-secret-token-123');
  });

  it('goes down the waterfall: rejected and duplicate go on, the first acceptance sells', async () => {
    await pauseAll();
    const [px, le, bob] = [nextPath('px'), nextPath('le'), nextPath('bob')];
    answer(px, [{ body: '{"Success":false,"Message":"BadRequest"}' }]);
    answer(le, [{ body: '{"ResponseType":6,"Message":"Duplicate lead"}' }]);
    answer(bob, [
      {
        type: 'application/xml',
        body: '<?xml version="1.0"?><response><status>Matched</status><lead_id>B-77</lead_id><best_bid>12.00</best_bid></response>',
      },
    ]);
    await createBuyer(pxBuyer(px, { priority: 1 }));
    await createBuyer(leadExecBuyer(le, { priority: 2 }));
    const b = await createBuyer(boberdooBuyer(bob, { priority: 3 }));
    const leadId = await submitLead({ zipCode: '10001' });
    const sale = await settledSale(leadId);
    expect(sale).toMatchObject({ status: 'sold', buyerId: b.id, price: 12 });
    expect(live(sale).map((a) => [a.outcome, a.reason])).toEqual([
      ['rejected', 'BadRequest'],
      ['duplicate', 'Duplicate lead'],
      ['accepted', null],
    ]);
    // The LeadExec-like buyer got its api-key header and an MM/DD/YYYY birthday.
    const leReq = rx.at(le)[0] as Received;
    expect(leReq.headers['api-key']).toBe('le-0123456789abcdef');
    expect(JSON.parse(leReq.body).DOB).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
    // The boberdoo-like buyer got a form.
    const bobReq = rx.at(bob)[0] as Received;
    expect(bobReq.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(new URLSearchParams(bobReq.body).get('State')).toBe('NY');
    expect(new URLSearchParams(bobReq.body).get('API_Action')).toBe('pingPostLead');
  });

  it('reads Unmatched as rejected (not as "matched"), and LeadExec 8 as rejected; nobody accepting leaves it unsold', async () => {
    await pauseAll();
    const [bob, le] = [nextPath('bob'), nextPath('le')];
    answer(bob, [
      {
        type: 'application/xml',
        body: '<response><status>Unmatched</status><reason>No buyer for zip</reason></response>',
      },
    ]);
    answer(le, [{ body: '{"ResponseType":8,"Message":"Over cap"}' }]);
    await createBuyer(boberdooBuyer(bob, { priority: 1 }));
    await createBuyer(leadExecBuyer(le, { priority: 2 }));
    const sale = await settledSale(await submitLead());
    expect(sale.status).toBe('unsold');
    expect(live(sale).map((a) => [a.outcome, a.reason])).toEqual([
      ['rejected', 'No buyer for zip'],
      ['rejected', 'Over cap'],
    ]);
  });

  it('skips with a reason code: filters, paused, closed', async () => {
    await pauseAll();
    const [a, b, c] = [nextPath('px'), nextPath('px'), nextPath('px')];
    for (const p of [a, b, c]) answer(p, [{ body: '{"Success":true}' }]);
    await createBuyer(pxBuyer(a, { priority: 1, filters: { states: ['CA'] } }));
    await createBuyer(pxBuyer(b, { priority: 2, filters: { minAge: 90 } }));
    // Open one minute a week, a day away from now in its zone: closed.
    const day = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'][(new Date().getUTCDay() + 3) % 7];
    const closed = await createBuyer(
      pxBuyer(c, {
        priority: 3,
        schedule: { timeZone: 'UTC', windows: [{ days: [day], start: '03:00', end: '03:01' }] },
      }),
    );
    const d = nextPath('px');
    answer(d, [{ body: '{"Success":true}' }]);
    const last = await createBuyer(pxBuyer(d, { priority: 4 }));
    // Issue 49: the list says which buyer is open now, and until when a closed one is closed.
    const opensAt = new Date();
    opensAt.setUTCDate(opensAt.getUTCDate() + 3);
    opensAt.setUTCHours(3, 0, 0, 0);
    const listed = (await api('GET', '/api/admin/buyers')).json() as { id: string }[];
    expect(listed.find((x) => x.id === closed.id)).toMatchObject({
      openNow: false,
      opensAt: opensAt.toISOString(),
    });
    expect(listed.find((x) => x.id === last.id)).toMatchObject({ openNow: true, opensAt: null });
    const sale = await settledSale(await submitLead({ zipCode: '60614' }));
    expect(sale).toMatchObject({ status: 'sold', buyerId: last.id, price: 5 });
    expect(live(sale).map((x) => [x.outcome, x.reason])).toEqual([
      ['skipped', 'filter_state'],
      ['skipped', 'filter_age'],
      ['skipped', 'closed'],
      ['accepted', null],
    ]);
    expect(rx.at(a).length + rx.at(b).length + rx.at(c).length).toBe(0);
  });

  it('does not offer a lead without consent, nor a held one until an admin releases it', async () => {
    await pauseAll();
    const path = nextPath('px');
    answer(path, [{ body: '{"Success":true}' }]);
    await createBuyer(pxBuyer(path));
    // No form token: held for review.
    const res = await bed.t.app.inject({
      method: 'POST',
      url: '/api/submit-search',
      payload: visitorLeadBody(),
      headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0.0.0' },
      remoteAddress: '198.18.200.7',
    });
    const heldId = (res.json() as { id: string }).id;
    const lead = (await api('GET', `/api/admin/leads/${heldId}`)).json() as { quality: { verdict: string } };
    expect(lead.quality.verdict).not.toBe('accept');
    expect((await api('GET', `/api/admin/leads/${heldId}/sale`)).json()).toMatchObject({
      status: 'not_for_sale',
      attempts: [],
    });
    const released = await api('POST', `/api/admin/leads/${heldId}/verdict`, { verdict: 'accept' });
    expect(released.statusCode, released.body).toBe(200);
    expect((await settledSale(heldId)).status).toBe('sold');
  });

  it('sells a partner API lead too, to a buyer that takes API leads, with its city', async () => {
    await pauseAll();
    const [websiteOnly, any] = [nextPath('px'), nextPath('px')];
    answer(websiteOnly, [{ body: '{"Success":true}' }]);
    answer(any, [{ body: '{"Success":true,"Payout":3}' }]);
    await createBuyer(pxBuyer(websiteOnly, { priority: 1, filters: { leadTypes: ['website'] } }));
    const b = await createBuyer(
      pxBuyer(any, {
        priority: 2,
        fields: [
          { to: 'City', from: 'city' },
          { to: 'Type', from: 'leadType' },
        ],
      }),
    );
    const key = (await createApiKey(bed.t.app.db.orm.em.fork(), 'Buyers Partner')).secret;
    const res = await postPartnerLead(
      bed.t.app,
      key,
      partnerLeadBody({
        trustedFormUrl: 'https://cert.trustedform.com/0123456789abcdef0123456789abcdef01234567',
      }),
    );
    expect(res.statusCode, res.body).toBe(201);
    const sale = await settledSale((res.json() as { id: string }).id);
    expect(sale).toMatchObject({ status: 'sold', buyerId: b.id, price: 3 });
    expect(live(sale).map((a) => [a.outcome, a.reason])).toEqual([
      ['skipped', 'filter_lead_type'],
      ['accepted', null],
    ]);
    expect(JSON.parse(rx.at(any)[0]?.body ?? '{}')).toEqual({ City: 'Austin', Type: 'api' });
  });

  it('sells exactly a day cap of 10 out of 50 leads at once; the rest go to the next buyer', async () => {
    await pauseAll();
    const [capped, next] = [nextPath('px'), nextPath('px')];
    answer(capped, [{ body: '{"Success":true}' }]);
    answer(next, [{ body: '{"Success":true}' }]);
    const a = await createBuyer(pxBuyer(capped, { priority: 1, caps: [{ period: 'day', leads: 10 }] }));
    const b = await createBuyer(pxBuyer(next, { priority: 2 }));
    const ids = await Promise.all(Array.from({ length: 50 }, () => submitLead()));
    const sales = await Promise.all(ids.map((id) => settledSale(id, 60_000)));
    expect(sales.filter((s) => s.buyerId === a.id)).toHaveLength(10);
    expect(sales.filter((s) => s.buyerId === b.id)).toHaveLength(40);
    expect(rx.at(capped)).toHaveLength(10);
    const view = (await api('GET', `/api/admin/buyers/${a.id}`)).json() as { caps: { usedLeads: number }[] };
    expect(view.caps[0]?.usedLeads).toBe(10);
    const skipped = sales.flatMap((s) => s.attempts).filter((x) => x.reason === 'cap_day');
    expect(skipped).toHaveLength(40);
  });

  it('pauses a buyer after its errors in a row, and e-mails nobody without SMTP', async () => {
    await pauseAll();
    const [bad, good] = [nextPath('px'), nextPath('px')];
    answer(bad, [{ status: 500, body: 'oops' }]);
    answer(good, [{ body: '{"Success":true}' }]);
    const a = await createBuyer(pxBuyer(bad, { priority: 1, maxConsecutiveErrors: 2 }));
    await createBuyer(pxBuyer(good, { priority: 2 }));
    for (let i = 0; i < 3; i++) await settledSale(await submitLead());
    expect(rx.at(bad)).toHaveLength(2);
    const view = (await api('GET', `/api/admin/buyers/${a.id}`)).json() as Record<string, unknown>;
    expect(view).toMatchObject({
      status: 'paused',
      pausedReason: '2 errors or timeouts in a row',
      consecutiveErrors: 2,
    });
  });

  it('records a buyer that does not answer in time as a timeout and goes on', async () => {
    await pauseAll();
    const [slow, good] = [nextPath('px'), nextPath('px')];
    answer(slow, [{ body: '{"Success":true}', delayMs: 3_000 }]);
    answer(good, [{ body: '{"Success":true}' }]);
    await createBuyer(
      pxBuyer(slow, {
        priority: 1,
        delivery: {
          kind: 'http',
          method: 'POST',
          url: `${rx.base}${slow}`,
          encoding: 'json',
          timeoutMs: 500,
        },
      }),
    );
    const g = await createBuyer(pxBuyer(good, { priority: 2 }));
    const sale = await settledSale(await submitLead());
    expect(sale).toMatchObject({ status: 'sold', buyerId: g.id });
    expect(live(sale)[0]).toMatchObject({ outcome: 'timeout' });
  });
});

describe('erasing a lead', () => {
  it('drops the requests and answers that carried its data, and keeps the sale for revenue', async () => {
    await pauseAll();
    const path = nextPath('px');
    answer(path, [{ body: '{"Success":true,"Payout":7}' }]);
    await createBuyer(pxBuyer(path));
    const leadId = await submitLead({ firstName: 'Erasable' });
    const sold = await settledSale(leadId);
    expect(JSON.stringify(sold.attempts)).toContain('Erasable');
    expect((await api('DELETE', `/api/admin/leads/${leadId}`)).statusCode).toBe(200);
    const after = (await api('GET', `/api/admin/leads/${leadId}/sale`)).json() as Sale;
    expect(after).toMatchObject({ status: 'sold', price: 7 });
    expect(JSON.stringify(after)).not.toContain('Erasable');
    expect(live(after).every((a) => a.request === null)).toBe(true);
  });
});

describe('buyer health', () => {
  it('reports a buyer offered leads that accepted none for 4 open hours, once per 12 hours', async () => {
    await pauseAll();
    const path = nextPath('bob');
    answer(path, [{ type: 'application/xml', body: '<response><status>Unmatched</status></response>' }]);
    const buyer = await createBuyer(boberdooBuyer(path, { name: 'Quiet buyer' }));
    expect((await settledSale(await submitLead())).status).toBe('unsold');
    const pool = new pg.Pool({ connectionString: bed.t.db.url });
    try {
      const onIdle = vi.fn(async () => true);
      const at = (hours: number) => new Date(Date.now() + hours * 3_600_000);
      expect(await reportIdleBuyers(pool, at(3), onIdle)).toBe(0);
      expect(await reportIdleBuyers(pool, at(5), onIdle)).toBe(1);
      expect(onIdle).toHaveBeenCalledWith({ id: buyer.id, name: 'Quiet buyer', openHours: 5, offered: 1 });
      expect(await reportIdleBuyers(pool, at(10), onIdle)).toBe(0);
      expect(await reportIdleBuyers(pool, at(18), onIdle)).toBe(1);
    } finally {
      await pool.end();
    }
  });
});

describe('trying a buyer out', () => {
  it('previews the exact request for a lead, secrets masked, sending nothing', async () => {
    await pauseAll();
    const path = nextPath('le');
    const buyer = await createBuyer(leadExecBuyer(path, { status: 'paused' }));
    const leadId = await submitLead({
      email: 'Ana.Lopez77@Gmail.com',
      birthYear: '1970',
      birthMonth: '7',
      birthDay: '4',
    });
    const res = await api('POST', `/api/admin/buyers/${buyer.id}/preview`, { leadId });
    expect(res.statusCode, res.body).toBe(200);
    const { request } = res.json() as {
      request: { method: string; url: string; headers: Record<string, string>; body: string };
    };
    expect(request.url).toBe(`${rx.base}${path}`);
    expect(request.headers['api-key']).toBe('••••');
    expect(JSON.parse(request.body)).toMatchObject({ Email: 'ana.lopez77@gmail.com', DOB: '07/04/1970' });
    expect(rx.at(path)).toHaveLength(0);
  });

  it('sends a test lead to the test URL and answers the parsed outcome; it never counts', async () => {
    const [live, test] = [nextPath('px'), nextPath('px-test')];
    answer(test, [{ body: '{"Success":true,"Payout":1.25}' }]);
    const buyer = await createBuyer(
      pxBuyer(live, {
        status: 'paused',
        delivery: {
          kind: 'http',
          method: 'POST',
          url: `${rx.base}${live}`,
          testUrl: `${rx.base}${test}`,
          encoding: 'json',
        },
        caps: [{ period: 'total', leads: 5 }],
      }),
    );
    const res = await api('POST', `/api/admin/buyers/${buyer.id}/test`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ test: true, outcome: 'accepted', price: 1.25, status: 200 });
    expect(rx.at(test)).toHaveLength(1);
    expect(rx.at(live)).toHaveLength(0);
    const view = (await api('GET', `/api/admin/buyers/${buyer.id}`)).json() as {
      caps: { usedLeads: number }[];
      today: { sold: number };
    };
    expect(view.caps[0]?.usedLeads).toBe(0);
    expect(view.today.sold).toBe(0);
  });
});

describe('returns and revenue', () => {
  it('credits a return within the window, refuses one after it, and revenue shows both', async () => {
    await pauseAll();
    const path = nextPath('px');
    answer(path, [{ body: '{"Success":true,"Payout":20}' }]);
    const buyer = await createBuyer(pxBuyer(path, { name: 'Revenue buyer', returnWindowDays: 10 }));
    const first = await submitLead();
    const second = await submitLead();
    expect((await settledSale(first)).price).toBe(20);
    expect((await settledSale(second)).price).toBe(20);
    const ok = await api('POST', `/api/admin/leads/${first}/return`, { reason: 'Disconnected number' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ leadId: first, buyerId: buyer.id, credited: 20 });
    expect((await api('POST', `/api/admin/leads/${first}/return`, { reason: 'again' })).statusCode).toBe(409);
    bed.clock.advance(11 * 86_400);
    const late = await api('POST', `/api/admin/leads/${second}/return`, { reason: 'Too late' });
    expect(late.statusCode).toBe(400);
    expect(late.body).toContain('return window');
    bed.clock.advance(-11 * 86_400);
    const today = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    const rows = (
      await api('GET', `/api/admin/revenue?from=${from}&to=${today}&groupBy=buyer`)
    ).json() as Record<string, unknown>[];
    expect(rows.find((r) => r.key === 'Revenue buyer')).toEqual({
      key: 'Revenue buyer',
      offered: 2,
      sold: 2,
      returned: 1,
      revenue: 40,
      credited: 20,
      net: 20,
    });
    expect((await api('GET', `/api/admin/revenue?from=${today}&to=${from}`)).statusCode).toBe(400);
    // The analytics sources table: the same sales on the source's row, in the same words (ADR 073).
    const bySource = (
      await api('GET', `/api/admin/revenue?from=${from}&to=${today}&groupBy=source`)
    ).json() as { key: string; sold: number; returned: number; revenue: number; net: number }[];
    const analytics = (
      await api('GET', `/api/admin/analytics?startDate=${from}&endDate=${today}`)
    ).json() as {
      sources: {
        channel: string;
        source: string;
        campaign: string;
        sold: number;
        returned: number;
        revenue: number;
        net: number;
      }[];
    };
    const direct = analytics.sources.find(
      (r) => r.channel === 'Direct' && r.source === 'direct' && r.campaign === '',
    );
    const row = bySource.find((r) => r.key === 'direct');
    expect(direct).toMatchObject({
      sold: row?.sold,
      returned: row?.returned,
      revenue: row?.revenue,
      net: row?.net,
    });
    expect(direct?.net).toBeGreaterThanOrEqual(20);
  });
});
