import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAdmin, signIn } from './support/admin';
import { insertWebsiteLead } from './support/leads';
import { startTestApp, type TestApp } from './support/test-app';

// Issue 35 part 3: the conversion files carry each sold lead's price (ADS_CONVERSION_VALUE for the rest),
// count accepted or sold leads, and Google Ads' conversion adjustments file retracts the returned ones.
// Issue 47: a lead its buyer returned is in neither conversion file, and Microsoft's retraction file
// retracts it as Google's does.
// Sales and returns are lead_sale rows as the buyers' waterfall leaves them.

let t: TestApp;
let cookies: Record<string, string>;
const TZ = 'America/New_York';
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestApp({ TIME_ZONE: TZ, ADS_CONVERSION_NAME: 'Lead, web', ADS_CONVERSION_VALUE: '10' });
  await seedAdmin(t.app);
  cookies = await signIn(t.app);

  const lead = async (
    name: string,
    createdAt: string,
    attribution: Record<string, string>,
    sale?: { status?: string; price?: string; returnedAt?: string },
    extra = '',
  ) => {
    const row = await insertWebsiteLead(t.app.db.pool, { createdAt: new Date(createdAt) });
    await t.app.db.pool.query(`update website_lead set attribution = $2::jsonb ${extra} where id = $1`, [
      row.id,
      JSON.stringify(attribution),
    ]);
    if (sale) {
      const sold = (sale.status ?? 'sold') === 'sold';
      await t.app.db.pool.query(
        `insert into lead_sale (lead_id, lead_kind, status, price_cents, sold_at, returned_at, return_reason, created_at)
         values ($1, 'website', $2, ($3::numeric * 100)::bigint, $4, $5, $6, $4)`,
        [
          row.id,
          sale.status ?? 'sold',
          sold ? (sale.price ?? null) : null,
          createdAt,
          sale.returnedAt ?? null,
          sale.returnedAt ? 'duplicate' : null,
        ],
      );
    }
    ids[name] = row.id;
  };
  // November 2026 in New York is EST (UTC-5); 20 October is EDT (UTC-4).
  await lead(
    'late',
    '2026-11-02T15:00:00Z',
    { gclid: 'G-late' },
    { price: '20.00', returnedAt: '2026-11-09T15:00:00Z' },
  );
  await lead('sold', '2026-11-03T15:00:00Z', { gclid: 'G-sold', msclkid: 'M-sold' }, { price: '25.00' });
  await lead(
    'returned',
    '2026-11-03T16:30:00Z',
    { gclid: 'G-returned', msclkid: 'M-returned' },
    { price: '40.00', returnedAt: '2026-11-05T14:15:00Z' },
  );
  await lead(
    'msOnly',
    '2026-11-03T18:00:00Z',
    { msclkid: 'M-only' },
    { price: '30.00', returnedAt: '2026-11-05T15:00:00Z' },
  );
  await lead(
    'unsold',
    '2026-11-04T12:00:00Z',
    { gclid: 'G-unsold', msclkid: 'M-unsold' },
    { status: 'unsold' },
  );
  await lead('held', '2026-11-04T13:00:00Z', { gclid: 'G-held' }, undefined, `, quality_verdict = 'hold'`);
  await lead(
    'optedOut',
    '2026-11-04T14:00:00Z',
    { gclid: 'G-opted' },
    { price: '50.00', returnedAt: '2026-11-05T16:00:00Z' },
    ', opted_out_at = now()',
  );
  // Sold in October, returned within the week: retracted with its October conversion time.
  await lead(
    'old',
    '2026-10-20T14:00:00Z',
    { gclid: 'G-old' },
    { price: '15.00', returnedAt: '2026-11-04T20:00:00Z' },
  );
});
afterAll(async () => {
  await t?.close();
});

const get = (path: string, query: string, withCookies = true) =>
  t.app.inject({ url: `/api/admin/exports/${path}?${query}`, ...(withCookies ? { cookies } : {}) });
const WEEK = 'from=2026-11-01&to=2026-11-07';
const GOOGLE_HEAD = [
  'Parameters:TimeZone=America/New_York',
  'Google Click ID,Conversion Name,Conversion Time,Conversion Value,Conversion Currency',
];
const MICROSOFT_HEAD = [
  'Type,Status,Id,Parent Id,Client Id,Name,Conversion Currency Code,Conversion Name,Conversion Time,Conversion Value,Microsoft Click Id',
  'Format Version,,,,,6.0,,,,,',
];

describe('conversion values', () => {
  it('Google, accepted leads (the default; a held lead is no conversion): sold ones at their price, returned ones left out; the rest at ADS_CONVERSION_VALUE', async () => {
    const res = await get('google-ads-conversions', WEEK);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(
      [
        ...GOOGLE_HEAD,
        'G-sold,"Lead, web",2026-11-03 10:00:00,25.00,USD',
        'G-unsold,"Lead, web",2026-11-04 07:00:00,10,USD',
        '',
      ].join('\n'),
    );
    expect((await get('google-ads-conversions', `${WEEK}&count=accepted`)).body).toBe(res.body);
  });

  it('Google, sold leads only (returned ones left out: issue 47)', async () => {
    const res = await get('google-ads-conversions', `${WEEK}&count=sold`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(
      [...GOOGLE_HEAD, 'G-sold,"Lead, web",2026-11-03 10:00:00,25.00,USD', ''].join('\n'),
    );
  });

  it('Microsoft, sold leads only, and accepted ones with the fallback value', async () => {
    const sold = await get('microsoft-ads-conversions', `${WEEK}&count=sold`);
    expect(sold.body).toBe(
      [
        ...MICROSOFT_HEAD,
        `Offline Conversion,,,,${ids.sold},,USD,"Lead, web",2026-11-03T15:00:00Z,25.00,M-sold`,
        '',
      ].join('\n'),
    );
    const accepted = await get('microsoft-ads-conversions', WEEK);
    expect(accepted.body.split('\n').slice(2, -1)).toEqual([
      ...sold.body.split('\n').slice(2, -1),
      `Offline Conversion,,,,${ids.unsold},,USD,"Lead, web",2026-11-04T12:00:00Z,10,M-unsold`,
    ]);
    const { rows } = await t.app.db.pool.query(
      "select detail from audit_log where action = 'leads.export_conversions' order by id desc limit 1",
    );
    expect(rows[0]?.detail).toEqual({
      platform: 'microsoft',
      from: '2026-11-01',
      to: '2026-11-07',
      count: 'accepted',
      rows: 2,
    });
  });

  it('refuses an unknown count with 400 naming the field', async () => {
    const res = await get('google-ads-conversions', `${WEEK}&count=returned`);
    expect(res.statusCode).toBe(400);
    expect(res.json().fieldErrors).toEqual([
      { field: 'count', message: "count must be 'accepted' or 'sold'" },
    ]);
  });
});

describe('Google Ads conversion adjustments', () => {
  const PATH = 'google-ads-conversion-adjustments';

  it('retracts each lead with a gclid returned in the days, at its original conversion time', async () => {
    const res = await get(PATH, WEEK);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="google-ads-conversion-adjustments-2026-11-01-to-2026-11-07.csv"',
    );
    expect(res.body).toBe(
      [
        'Parameters:TimeZone=America/New_York',
        'Google Click ID,Conversion Name,Conversion Time,Adjustment Time,Adjustment Type,Adjustment Value,Adjustment Value Currency',
        'G-old,"Lead, web",2026-10-20 10:00:00,2026-11-04 15:00:00,RETRACT,,',
        'G-returned,"Lead, web",2026-11-03 11:30:00,2026-11-05 09:15:00,RETRACT,,',
        '',
      ].join('\n'),
    );
    const { rows } = await t.app.db.pool.query(
      "select detail from audit_log where action = 'leads.export_conversions' order by id desc limit 1",
    );
    expect(rows[0]?.detail).toEqual({
      platform: 'google',
      file: 'adjustments',
      from: '2026-11-01',
      to: '2026-11-07',
      rows: 2,
    });
  });

  it('counts a return by its own day: the week after has the late one', async () => {
    const res = await get(PATH, 'from=2026-11-08&to=2026-11-14');
    expect(res.body.split('\n').slice(2)).toEqual([
      'G-late,"Lead, web",2026-11-02 10:00:00,2026-11-09 10:00:00,RETRACT,,',
      '',
    ]);
  });

  it('Microsoft: one Retract record per lead with an msclkid returned in the days (issue 47)', async () => {
    const res = await get('microsoft-ads-conversion-adjustments', WEEK);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="microsoft-ads-conversion-adjustments-2026-11-01-to-2026-11-07.csv"',
    );
    expect(res.body).toBe(
      [
        'Type,Status,Id,Parent Id,Client Id,Name,Conversion Currency Code,Conversion Name,Conversion Time,Conversion Value,Microsoft Click Id,Adjustment Type,Adjustment Time,Adjustment Value,Adjustment Currency Code',
        'Format Version,,,,,6.0,,,,,,,,,',
        `Offline Conversion,,,,${ids.returned},,,"Lead, web",2026-11-03T16:30:00Z,,M-returned,Retract,2026-11-05T14:15:00Z,,`,
        `Offline Conversion,,,,${ids.msOnly},,,"Lead, web",2026-11-03T18:00:00Z,,M-only,Retract,2026-11-05T15:00:00Z,,`,
        '',
      ].join('\n'),
    );
    const { rows } = await t.app.db.pool.query(
      "select detail from audit_log where action = 'leads.export_conversions' order by id desc limit 1",
    );
    expect(rows[0]?.detail).toEqual({
      platform: 'microsoft',
      file: 'adjustments',
      from: '2026-11-01',
      to: '2026-11-07',
      rows: 2,
    });
  });

  it('refuses bad dates with 400 naming the field, and callers without a session with 401', async () => {
    for (const [query, field] of [
      ['to=2026-11-07', 'from'],
      ['from=2026-11-01&to=2026-10-31', 'to'],
    ] as const) {
      const res = await get(PATH, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().fieldErrors.map((e: { field: string }) => e.field)).toEqual([field]);
    }
    expect((await get(PATH, WEEK, false)).statusCode).toBe(401);
  });
});
