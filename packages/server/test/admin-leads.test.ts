import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dateAndTimeIn } from '../src/platform/time';
import { seedAdmin, signIn } from './support/admin';
import { insertApiLead, insertWebsiteLead, type WebsiteLeadRow } from './support/leads';
import { startTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let cookies: Record<string, string>;
const TZ = 'America/New_York';

beforeAll(async () => {
  t = await startTestApp({ TIME_ZONE: TZ });
  await seedAdmin(t.app);
  cookies = await signIn(t.app);
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string) => t.app.inject({ method: 'GET', url, cookies });

describe('admin paths without a session', () => {
  const id = randomUUID();
  const paths: [string, string, object?][] = [
    ['GET', '/api/admin/leads'],
    ['GET', '/api/admin/leads?page=1&pageSize=10'],
    ['GET', '/api/admin/stats'],
    ['GET', '/api/admin/api-leads'],
    ['GET', '/api/admin/api-stats'],
    ['GET', '/api/admin/export'],
    ['GET', '/api/admin/export-api-leads'],
    ['GET', '/api/admin/audit-log'],
    ['GET', '/api/admin/me'],
    ['POST', '/api/admin/backup'],
    ['DELETE', `/api/admin/leads/${id}`],
    ['DELETE', '/api/admin/leads', { ids: [id] }],
    ['DELETE', `/api/admin/api-leads/${id}`],
    ['DELETE', '/api/admin/api-leads', { ids: [id] }],
  ];
  it.each(paths)('%s %s answers 401 JSON', async (method, url, payload) => {
    const res = await t.app.inject({ method: method as 'GET', url, ...(payload ? { payload } : {}) });
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json()).toEqual({ error: 'unauthorized', message: 'Please sign in' });
  });

  it('covers every admin path the app registers (from its OpenAPI document)', async () => {
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const open = new Set(['POST /api/admin/login', 'POST /api/admin/logout']);
    const checked: string[] = [];
    for (const [template, operations] of Object.entries(doc.paths)) {
      if (!template.startsWith('/api/admin/')) continue;
      const url = template.replace(/\{[^}]+\}/g, id);
      for (const method of Object.keys(operations).map((m) => m.toUpperCase())) {
        if (open.has(`${method} ${template}`)) continue;
        const res = await t.app.inject({
          method: method as 'GET',
          url,
          payload: method === 'GET' ? undefined : {},
        });
        expect(res.statusCode, `${method} ${template}`).toBe(401);
        expect(res.json().error).toBe('unauthorized');
        checked.push(`${method} ${template}`);
      }
    }
    expect(checked).toEqual(
      expect.arrayContaining(paths.map(([m, u]) => `${m} ${u.replace(id, '{id}').split('?')[0]}`)),
    );
  });

  it('answers 401 with a forged or logged-out cookie, and through tRPC', async () => {
    const forged = await t.app.inject({ url: '/api/admin/leads', cookies: { uf_admin: 'forged.value' } });
    expect(forged.statusCode).toBe(401);
    const trpc = await t.app.inject({ url: '/api/trpc/admin.leads.stats' });
    expect(trpc.statusCode).toBe(401);
    const session = await signIn(t.app);
    await t.app.inject({ method: 'POST', url: '/api/admin/logout', cookies: session });
    const after = await t.app.inject({ url: '/api/admin/export', cookies: session });
    expect(after.statusCode).toBe(401);
  });
});

describe('website leads list', () => {
  // A small population that every filter splits differently; the expected answers are computed from it.
  const seeded: WebsiteLeadRow[] = [];
  const at = (iso: string) => new Date(iso);
  beforeAll(async () => {
    const specs: Partial<WebsiteLeadRow>[] = [
      { state: 'CA', birthYear: 1970, consentGiven: true, createdAt: at('2026-03-01T05:30:00Z') },
      { state: 'CA', birthYear: 1980, consentGiven: false, createdAt: at('2026-03-02T04:30:00Z') },
      // 23:30 on 2026-03-02 in New York (still the 2nd there, already the 3rd in UTC).
      { state: 'TX', birthYear: 1970, consentGiven: true, createdAt: at('2026-03-03T04:30:00Z') },
      { state: 'TX', birthYear: 1990, consentGiven: false, createdAt: at('2026-03-03T05:30:00Z') },
      { state: 'NY', birthYear: 1970, consentGiven: true, createdAt: at('2026-03-05T12:00:00Z') },
      { state: null, birthYear: 1985, consentGiven: true, createdAt: at('2026-03-06T12:00:00Z') },
      { state: 'CA', birthYear: 1990, consentGiven: true, createdAt: at('2026-03-07T12:00:00Z') },
    ];
    for (const spec of specs) seeded.push(await insertWebsiteLead(t.app.db.pool, spec));
  });

  type Filter = {
    state?: string;
    birthYear?: number;
    startDate?: string;
    endDate?: string;
    consent?: boolean;
  };
  const localDate = (d: Date) => dateAndTimeIn(d, TZ).date;
  const expected = (f: Filter) =>
    seeded
      .filter(
        (l) =>
          (f.state === undefined || l.state === f.state) &&
          (f.birthYear === undefined || l.birthYear === f.birthYear) &&
          (f.startDate === undefined || localDate(l.createdAt) >= f.startDate) &&
          (f.endDate === undefined || localDate(l.createdAt) <= f.endDate) &&
          (f.consent === undefined || l.consentGiven === f.consent),
      )
      .map((l) => l.id)
      .sort();

  const cases: [string, Filter][] = [
    ['', {}],
    ['state=CA', { state: 'CA' }],
    ['state=tx', { state: 'TX' }],
    ['birthYear=1970', { birthYear: 1970 }],
    ['startDate=2026-03-03', { startDate: '2026-03-03' }],
    ['endDate=2026-03-02', { endDate: '2026-03-02' }],
    ['startDate=2026-03-02&endDate=2026-03-02', { startDate: '2026-03-02', endDate: '2026-03-02' }],
    ['consentGiven=true', { consent: true }],
    ['consentGiven=false', { consent: false }],
    ['state=CA&consentGiven=true', { state: 'CA', consent: true }],
    [
      'state=TX&birthYear=1970&startDate=2026-03-01&endDate=2026-03-04',
      {
        state: 'TX',
        birthYear: 1970,
        startDate: '2026-03-01',
        endDate: '2026-03-04',
      },
    ],
    ['birthYear=1990&consentGiven=false', { birthYear: 1990, consent: false }],
    // Empty values and 'all' are no filter at all (spec §5).
    ['state=all&birthYear=&startDate=&endDate=&consentGiven=all', {}],
    ['state=all&consentGiven=false', { consent: false }],
  ];

  it.each(cases)('GET /api/admin/leads?%s returns exactly the matching leads', async (query, filter) => {
    const res = await get(`/api/admin/leads?${query}`);
    expect(res.statusCode).toBe(200);
    const ids = (res.json() as { id: string }[]).map((l) => l.id).sort();
    expect(ids).toEqual(expected(filter));
    // The paged form of the same query agrees, and its total is the filtered count.
    const paged = await get(`/api/admin/leads?${query}&page=1&pageSize=100`);
    expect(paged.headers['x-total-count']).toBe(String(expected(filter).length));
    expect((paged.json() as { id: string }[]).map((l) => l.id).sort()).toEqual(expected(filter));
  });

  it('searches by name, e-mail and phone (any way it is typed), on the server; too short is a 400', async () => {
    const ada = await insertWebsiteLead(t.app.db.pool, {
      firstName: 'Adalyn',
      lastName: 'Quimby',
      email: 'ada.quimby@example.org',
      phone: '(212) 555-0147',
    });
    try {
      const search = async (q: string) => {
        const res = await get(`/api/admin/leads?search=${encodeURIComponent(q)}`);
        expect(res.statusCode, q).toBe(200);
        return (res.json() as { id: string }[]).map((l) => l.id);
      };
      for (const q of [
        'quimby',
        'ADALYN Q',
        'ada.quimby@',
        '2125550147',
        '212-555-0147',
        '(212) 555',
        '1 212 555 0147',
        '5550147',
      ]) {
        expect(await search(q), q).toEqual([ada.id]);
      }
      expect(await search('nobody-by-this-name')).toEqual([]);
      expect(await search('%%')).toEqual([]); // LIKE wildcards are plain characters
      const paged = await get('/api/admin/leads?search=quimby&page=1&pageSize=10');
      expect(paged.headers['x-total-count']).toBe('1');
      const short = await get('/api/admin/leads?search=a');
      expect(short.statusCode).toBe(400);
      expect(short.json().fieldErrors).toEqual([
        { field: 'search', message: 'search needs at least 2 characters' },
      ]);
    } finally {
      await t.app.db.pool.query('delete from website_lead where id = $1', [ada.id]);
    }
  });

  it('gives every website-lead field of spec §3', async () => {
    const res = await get('/api/admin/leads?birthYear=1985');
    const [lead] = res.json();
    const row = seeded.find((l) => l.birthYear === 1985);
    expect(lead).toEqual({
      id: row?.id,
      firstName: 'Jane',
      lastName: row?.lastName,
      email: row?.email,
      phone: '(555) 123-4567',
      streetAddress: '1 Main St',
      zipCode: '90210',
      state: null,
      birthMonth: '5',
      birthDay: '17',
      birthYear: '1985',
      optInDate: '2026-01-02',
      optInTime: '03:04:05',
      certificationId: null,
      leadSource: 'website',
      tcpaCompliant: 'true',
      beneficiary: null,
      ipAddress: '203.0.113.9',
      trustedFormUrl: null,
      createdAt: '2026-03-06T12:00:00.000Z',
      consentGiven: true,
      optedOut: false,
      doNotSell: false,
      channel: null,
      source: null,
      medium: null,
      campaign: null,
      // The visit's click ids (issue 24): none for a lead stored without attribution.
      gclid: null,
      gbraid: null,
      wbraid: null,
      fbclid: null,
      fbc: null,
      fbp: null,
      msclkid: null,
      ttclid: null,
      // The landing experiment and arm of the lead's page (issue 48): none here.
      experiment: null,
      arm: null,
      // Lead quality (issue 33): a lead stored before it (straight into the table here) is accepted.
      quality: { verdict: 'accept', reasons: [], decidedBy: 'rules', decidedAt: null, rulesVersion: 0 },
    });
  });

  it('pages with a total count, sorted newest first, without overlap', async () => {
    const pages = [];
    for (let page = 1; page <= 3; page++) {
      const res = await t.app.inject({
        url: `/api/trpc/admin.leads.list?input=${encodeURIComponent(JSON.stringify({ page, pageSize: 3 }))}`,
        cookies,
      });
      expect(res.statusCode).toBe(200);
      pages.push(res.json().result.data as { items: { id: string }[]; total: number });
    }
    expect(pages.map((p) => p.items.length)).toEqual([3, 3, 1]);
    expect(pages.every((p) => p.total === 7)).toBe(true);
    const newestFirst = [...seeded].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    expect(pages.flatMap((p) => p.items.map((i) => i.id))).toEqual(newestFirst.map((l) => l.id));
  });

  it('sorts by any field, both ways', async () => {
    const asc = (await get('/api/admin/leads?sort=lastName&order=asc')).json() as { lastName: string }[];
    const names = asc.map((l) => l.lastName);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const byYear = (await get('/api/admin/leads?sort=birthYear&order=desc&page=1&pageSize=2')).json();
    expect(byYear.map((l: { birthYear: string }) => l.birthYear)).toEqual(['1990', '1990']);
  });

  it.each([
    ['state=XX', 'state'],
    ['birthYear=nineteen', 'birthYear'],
    ['startDate=2026-02-30', 'startDate'],
    ['endDate=yesterday', 'endDate'],
    ['consentGiven=maybe', 'consentGiven'],
    ['page=0&pageSize=10', 'page'],
    ['page=1&pageSize=5000', 'pageSize'],
    ['sort=password', 'sort'],
    ['order=up', 'order'],
  ])('rejects %s with a 400 naming the field', async (query, field) => {
    const res = await get(`/api/admin/leads?${query}`);
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error).toBe('validation_error');
    expect(body.message).toEqual(expect.any(String));
    expect(body.fieldErrors.map((e: { field: string }) => e.field)).toContain(field);
  });
});

describe('deletes', () => {
  it('deletes one lead, then answers 404 for it', async () => {
    const lead = await insertWebsiteLead(t.app.db.pool);
    const res = await t.app.inject({ method: 'DELETE', url: `/api/admin/leads/${lead.id}`, cookies });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: lead.id, deletedCount: 1 });
    const again = await t.app.inject({ method: 'DELETE', url: `/api/admin/leads/${lead.id}`, cookies });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ error: 'not_found', message: 'Lead not found' });
    const bad = await t.app.inject({ method: 'DELETE', url: '/api/admin/leads/not-a-uuid', cookies });
    expect(bad.statusCode).toBe(400);
  });

  it('bulk-deletes in one call and counts only what existed', async () => {
    const a = await insertWebsiteLead(t.app.db.pool);
    const b = await insertWebsiteLead(t.app.db.pool);
    const keep = await insertWebsiteLead(t.app.db.pool);
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/api/admin/leads',
      cookies,
      payload: { ids: [a.id, b.id, a.id, randomUUID()] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ deletedCount: 2 });
    const left = await t.app.db.pool.query('select id from website_lead where id = any($1::uuid[])', [
      [a.id, b.id, keep.id],
    ]);
    expect(left.rows.map((r) => r.id)).toEqual([keep.id]);
  });

  it('accepts a bulk delete far above the default body limit', async () => {
    const ids: string[] = Array.from({ length: 20_000 }, () => randomUUID());
    const lead = await insertWebsiteLead(t.app.db.pool);
    ids.push(lead.id);
    const res = await t.app.inject({ method: 'DELETE', url: '/api/admin/leads', cookies, payload: { ids } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ deletedCount: 1 });
  });

  it.each([
    [{}, 'ids'],
    [{ ids: [] }, 'ids'],
    [{ ids: ['x'] }, 'ids.0'],
    [{ ids: 'abc' }, 'ids'],
  ])('rejects the bulk body %j with a 400', async (payload, field) => {
    const res = await t.app.inject({ method: 'DELETE', url: '/api/admin/leads', cookies, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().fieldErrors[0].field).toBe(field);
  });

  it('deletes API leads singly and in bulk', async () => {
    const one = await insertApiLead(t.app.db.pool);
    const two = await insertApiLead(t.app.db.pool);
    const three = await insertApiLead(t.app.db.pool);
    const single = await t.app.inject({ method: 'DELETE', url: `/api/admin/api-leads/${one.id}`, cookies });
    expect(single.json()).toEqual({ id: one.id, deletedCount: 1 });
    const missing = await t.app.inject({ method: 'DELETE', url: `/api/admin/api-leads/${one.id}`, cookies });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('API lead not found');
    const bulk = await t.app.inject({
      method: 'DELETE',
      url: '/api/admin/api-leads',
      cookies,
      payload: { ids: [two.id, three.id] },
    });
    expect(bulk.json()).toEqual({ deletedCount: 2 });
  });

  it('records deletes in the audit log with the admin name', async () => {
    const res = await get('/api/admin/audit-log?limit=50');
    expect(res.statusCode).toBe(200);
    const entries = res.json() as { actor: string; action: string; detail: Record<string, unknown> }[];
    const deletes = entries.filter((e) => e.action === 'leads.delete');
    expect(deletes.length).toBeGreaterThanOrEqual(2);
    expect(deletes.every((e) => e.actor === 'alice')).toBe(true);
    expect(entries.some((e) => e.action === 'api_leads.delete' && e.detail.deleted === 2)).toBe(true);
    expect((await get('/api/admin/audit-log?limit=0')).statusCode).toBe(400);
  });
});

describe('API leads list', () => {
  it('filters by state, birth year and dates, pages, and gives the API-lead fields', async () => {
    await t.app.db.pool.query('delete from api_lead');
    const base = {
      firstName: 'Ann',
      lastName: 'Lee',
      streetAddress: '3 Elm St',
      city: 'Dallas',
      phone: '214-555-0101',
      birthMonth: 2,
      birthDay: 3,
      beneficiary: 'Wife',
      trustedFormUrl: 'https://cert.trustedform.com/abc',
    };
    const tx = await insertApiLead(t.app.db.pool, {
      ...base,
      state: 'TX',
      birthYear: 1960,
      createdAt: new Date('2026-04-01T15:00:00Z'),
    });
    await insertApiLead(t.app.db.pool, {
      ...base,
      state: 'FL',
      birthYear: 1960,
      createdAt: new Date('2026-04-02T15:00:00Z'),
    });
    await insertApiLead(t.app.db.pool, {
      ...base,
      state: 'TX',
      birthYear: 1975,
      createdAt: new Date('2026-04-03T15:00:00Z'),
    });

    const byState = (await get('/api/admin/api-leads?state=TX')).json() as { id: string }[];
    expect(byState).toHaveLength(2);
    const combined = (await get('/api/admin/api-leads?state=TX&birthYear=1960')).json();
    expect(combined).toEqual([
      {
        id: tx.id,
        firstName: 'Ann',
        lastName: 'Lee',
        streetAddress: '3 Elm St',
        city: 'Dallas',
        state: 'TX',
        phone: '214-555-0101',
        birthMonth: '2',
        birthDay: '3',
        birthYear: '1960',
        beneficiary: 'Wife',
        trustedFormUrl: 'https://cert.trustedform.com/abc',
        createdAt: '2026-04-01T15:00:00.000Z',
        optedOut: false,
        // Lead quality (issue 33): a lead stored before it (straight into the table here) is accepted.
        quality: { verdict: 'accept', reasons: [], decidedBy: 'rules', decidedAt: null, rulesVersion: 0 },
      },
    ]);
    const dated = (await get('/api/admin/api-leads?startDate=2026-04-02&endDate=2026-04-02')).json();
    expect(dated.map((l: { state: string }) => l.state)).toEqual(['FL']);
    const paged = await get('/api/admin/api-leads?page=2&pageSize=2');
    expect(paged.headers['x-total-count']).toBe('3');
    expect(paged.json()).toHaveLength(1);
    // API leads have no consent filter: the parameter is not part of their query.
    expect((await get('/api/admin/api-leads?consentGiven=false')).json()).toHaveLength(3);
  });
});

describe('streamed full list', () => {
  it('returns the whole filtered set as one JSON array across cursor batches', async () => {
    const pool = t.app.db.pool;
    await pool.query(
      `insert into website_lead (first_name, last_name, email, phone, street_address, zip_code, state,
         birth_month, birth_day, birth_year, consent_given, opt_in_date, opt_in_time)
       select 'Bulk', 'Row' || g, 'bulk' || g || '@example.com', '555-555-5555', '9 Bulk Rd', '10001', 'WY',
         1, 1, 1950, true, '2026-01-01', '00:00:00'
       from generate_series(1, 4500) g`,
    );
    const res = await get('/api/admin/leads?state=WY');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const rows = res.json() as { state: string }[];
    expect(rows).toHaveLength(4500);
    expect(rows.every((r) => r.state === 'WY')).toBe(true);
    expect((await get('/api/admin/leads?state=WY&birthYear=1951')).json()).toEqual([]);
    // The connection went back to the pool in a clean state.
    expect((await pool.query('select 1 as ok')).rows[0].ok).toBe(1);
  });
});
