import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAdmin, signIn } from './support/admin';
import { leadBody } from './support/fixtures';
import { insertWebsiteLead, parseCsv } from './support/leads';
import { startTestApp, type TestApp } from './support/test-app';

// Issue 24: the visit's click ids reach the lead, its receipt, the admin API and CSV export through every
// door, and the ad platforms' offline-conversion files are built from them.

let t: TestApp;
let cookies: Record<string, string>;
const TZ = 'America/New_York';
const ORIGIN = 'http://localhost:3000';

beforeAll(async () => {
  t = await startTestApp({ TIME_ZONE: TZ, ADS_CONVERSION_NAME: 'Lead, web', ADS_CONVERSION_VALUE: '12.5' });
  await seedAdmin(t.app);
  cookies = await signIn(t.app);
});
afterAll(async () => {
  await t?.close();
});

const CLICK = {
  gclid: 'Cj0KCQ-gclid_1',
  fbclid: 'IwAR-fbclid.2',
  msclkid: 'f894f652ea334e739002f7167ab8f8e3',
};
const META = { _fbc: 'fb.1.1732000000000.IwAR-fbclid.2', _fbp: 'fb.1.1732000000000.1116446470' };
const metaCookieHeader = `${Object.entries(META)
  .map(([k, v]) => `${k}=${v}`)
  .join('; ')}`;
const LANDING = `${ORIGIN}/?utm_source=google&${new URLSearchParams(CLICK).toString()}`;

async function submitRest(email: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/submit-search',
    headers: { host: 'localhost:3000', origin: ORIGIN, cookie: metaCookieHeader, 'user-agent': 'vitest' },
    payload: { ...leadBody({ email, pageUrl: LANDING }), attribution: { utm_source: 'google', ...CLICK } },
  });
  expect(res.statusCode).toBe(200);
  return res.json<{ id: string }>().id;
}

async function submitTrpc(email: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/trpc/lead.submit',
    headers: { host: 'localhost:3000', origin: ORIGIN, cookie: metaCookieHeader, 'user-agent': 'vitest' },
    payload: { ...leadBody({ email, pageUrl: LANDING }), attribution: { utm_source: 'google', ...CLICK } },
  });
  expect(res.statusCode).toBe(200);
  return res.json<{ result: { data: { id: string } } }>().result.data.id;
}

async function submitFormPost(email: string) {
  const { consentGiven: _consent, ...fields } = leadBody({ email });
  const res = await t.app.inject({
    method: 'POST',
    url: '/',
    headers: {
      host: 'localhost:3000',
      origin: ORIGIN,
      cookie: metaCookieHeader,
      'content-type': 'application/x-www-form-urlencoded',
      // The browser's own post: the landing URL (with its click ids) is the Referer.
      referer: LANDING,
      'user-agent': 'no-script browser',
    },
    payload: new URLSearchParams({ formStep: 'lead', ...fields, consentGiven: 'true' }).toString(),
  });
  expect(res.statusCode).toBe(200);
  const { rows } = await t.app.db.pool.query<{ id: string }>('select id from website_lead where email = $1', [
    email,
  ]);
  return rows[0]?.id ?? '';
}

describe('click ids on the lead (every door)', () => {
  const expected = {
    gclid: CLICK.gclid,
    fbclid: CLICK.fbclid,
    msclkid: CLICK.msclkid,
    fbc: META._fbc,
    fbp: META._fbp,
    gbraid: null,
    wbraid: null,
    ttclid: null,
  };

  it.each([
    ['REST POST /api/submit-search', submitRest],
    ['tRPC lead.submit', submitTrpc],
    ['the form posted without the app (POST /)', submitFormPost],
  ])('%s stores the values on the lead and its receipt, the admin API lists them', async (_door, submit) => {
    const email = `clicks.${Math.random().toString(36).slice(2)}@example.com`;
    const id = await submit(email);
    expect(id).not.toBe('');

    const receipt = await t.app.inject({ url: `/api/admin/leads/${id}/consent-receipt`, cookies });
    expect(receipt.statusCode).toBe(200);
    expect(receipt.json().attribution).toMatchObject({ ...CLICK, fbc: META._fbc, fbp: META._fbp });

    const list = await t.app.inject({ url: `/api/admin/leads?search=${encodeURIComponent(email)}`, cookies });
    expect(list.statusCode).toBe(200);
    const [lead] = list.json<Record<string, unknown>[]>();
    expect(lead).toMatchObject({ id, ...expected });
  });

  it('drops a junk click id or cookie and still stores the lead', async () => {
    const email = `junk.${Math.random().toString(36).slice(2)}@example.com`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/submit-search',
      headers: { host: 'localhost:3000', origin: ORIGIN, cookie: '_fbc=<script>; _fbp=fb.1.x.1' },
      payload: {
        ...leadBody({ email }),
        attribution: { gclid: 'a b<c>', msclkid: 'm'.repeat(501), fbclid: 'ok-1' },
      },
    });
    expect(res.statusCode).toBe(200);
    const { rows } = await t.app.db.pool.query('select attribution from website_lead where id = $1', [
      res.json().id,
    ]);
    expect(rows[0].attribution).toEqual({ fbclid: 'ok-1' });
  });

  it('exports the click ids as CSV columns after the spec’s, in a fixed order', async () => {
    const email = `csv.${Math.random().toString(36).slice(2)}@example.com`;
    const id = await submitRest(email);
    const res = await t.app.inject({ url: `/api/admin/export?search=${encodeURIComponent(email)}`, cookies });
    expect(res.statusCode).toBe(200);
    const [header = [], row = []] = parseCsv(res.rawPayload.toString('utf8').slice(1));
    // The click ids, then the landing experiment and arm (issue 48), then lead quality's verdict and
    // reasons (issue 33).
    expect(header.slice(-13, -4)).toEqual([
      'campaign',
      'gclid',
      'gbraid',
      'wbraid',
      'fbclid',
      'fbc',
      'fbp',
      'msclkid',
      'ttclid',
    ]);
    const cells = Object.fromEntries(header.map((h, i) => [h, row[i]]));
    expect(cells).toMatchObject({
      id,
      gclid: CLICK.gclid,
      fbclid: CLICK.fbclid,
      msclkid: CLICK.msclkid,
      fbc: META._fbc,
      ttclid: '',
    });
  });
});

describe('offline conversion exports', () => {
  const ids: Record<string, string> = {};
  const lead = async (
    name: string,
    createdAt: string,
    attribution: Record<string, string> | null,
    extra = '',
  ) => {
    const row = await insertWebsiteLead(t.app.db.pool, { createdAt: new Date(createdAt) });
    await t.app.db.pool.query(`update website_lead set attribution = $2::jsonb ${extra} where id = $1`, [
      row.id,
      attribution === null ? null : JSON.stringify(attribution),
    ]);
    ids[name] = row.id;
  };

  beforeAll(async () => {
    await t.app.db.pool.query('delete from website_lead');
    // 2026-03-01 in New York: 05:00Z to 05:00Z next day (EST, UTC-5).
    await lead('before', '2026-03-01T04:59:59Z', { gclid: 'G-before', msclkid: 'M-before' });
    await lead('first', '2026-03-01T05:00:00Z', { gclid: 'G-first', msclkid: 'M-first' });
    await lead('summer', '2026-03-09T03:30:00Z', { gclid: 'G-dst' }); // 8 March 23:30 EDT (after the switch)
    await lead('noClick', '2026-03-02T12:00:00Z', { utm_source: 'google' });
    await lead('fbOnly', '2026-03-02T12:00:00Z', { fbclid: 'F1' });
    await lead(
      'optedOut',
      '2026-03-02T12:00:00Z',
      { gclid: 'G-opted', msclkid: 'M-opted' },
      ', opted_out_at = now()',
    );
    await lead(
      'doNotSell',
      '2026-03-02T12:00:00Z',
      { gclid: 'G-dns', msclkid: 'M-dns' },
      ', do_not_sell = true',
    );
    await lead('last', '2026-03-09T03:59:59Z', { msclkid: 'M-last' }); // 8 March 23:59:59 EDT
    await lead('after', '2026-03-09T04:00:00Z', { gclid: 'G-after', msclkid: 'M-after' }); // 9 March 00:00 EDT
  });

  const get = (path: string, query: string, withCookies = true) =>
    t.app.inject({ url: `/api/admin/exports/${path}?${query}`, ...(withCookies ? { cookies } : {}) });

  it('answers Google Ads’ import file for the business days, times in TIME_ZONE', async () => {
    const res = await get('google-ads-conversions', 'from=2026-03-01&to=2026-03-08');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="google-ads-conversions-2026-03-01-to-2026-03-08.csv"',
    );
    expect(res.body).toBe(
      [
        'Parameters:TimeZone=America/New_York',
        'Google Click ID,Conversion Name,Conversion Time,Conversion Value,Conversion Currency',
        'G-first,"Lead, web",2026-03-01 00:00:00,12.5,USD',
        'G-dst,"Lead, web",2026-03-08 23:30:00,12.5,USD',
        '',
      ].join('\n'),
    );
  });

  it('answers Microsoft Advertising’s bulk file, times in UTC, lead ids as Client Id', async () => {
    const res = await get('microsoft-ads-conversions', 'from=2026-03-01&to=2026-03-08');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="microsoft-ads-conversions-2026-03-01-to-2026-03-08.csv"',
    );
    expect(res.body).toBe(
      [
        'Type,Status,Id,Parent Id,Client Id,Name,Conversion Currency Code,Conversion Name,Conversion Time,Conversion Value,Microsoft Click Id',
        'Format Version,,,,,6.0,,,,,',
        `Offline Conversion,,,,${ids.first},,USD,"Lead, web",2026-03-01T05:00:00Z,12.5,M-first`,
        `Offline Conversion,,,,${ids.last},,USD,"Lead, web",2026-03-09T03:59:59Z,12.5,M-last`,
        '',
      ].join('\n'),
    );
  });

  it('records the export in the audit log', async () => {
    const { rows } = await t.app.db.pool.query(
      "select detail from audit_log where action = 'leads.export_conversions' order by id desc limit 1",
    );
    expect(rows[0]?.detail).toMatchObject({
      platform: 'microsoft',
      from: '2026-03-01',
      to: '2026-03-08',
      rows: 2,
    });
  });

  it('answers a day without conversions with the header alone', async () => {
    const res = await get('google-ads-conversions', 'from=2026-02-01&to=2026-02-01');
    expect(res.statusCode).toBe(200);
    expect(res.body.trim().split('\n')).toHaveLength(2);
  });

  it('refuses bad dates with 400 naming the field, and callers without a session with 401', async () => {
    for (const [query, field] of [
      ['to=2026-03-08', 'from'],
      ['from=2026-03-01', 'to'],
      ['from=2026-02-30&to=2026-03-08', 'from'],
      ['from=2026-03-08&to=2026-03-01', 'to'],
      ['from=yesterday&to=2026-03-01', 'from'],
    ] as const) {
      for (const path of ['google-ads-conversions', 'microsoft-ads-conversions']) {
        const res = await get(path, query);
        expect(res.statusCode, `${path}?${query}`).toBe(400);
        expect(res.json().fieldErrors.map((e: { field: string }) => e.field)).toEqual([field]);
      }
    }
    for (const path of ['google-ads-conversions', 'microsoft-ads-conversions']) {
      const res = await get(path, 'from=2026-03-01&to=2026-03-08', false);
      expect(res.statusCode).toBe(401);
    }
  });
});
