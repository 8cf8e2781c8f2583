import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOOGLE_CSV, META_CSV, MICROSOFT_CSV } from './support/ad-cost-reports';
import { seedAdmin, signIn } from './support/admin';
import { startTestApp, type TestApp } from './support/test-app';

// Ad cost in (issue 35): each platform's campaign report imported through the admin API as it downloads,
// a re-import replacing the same days, a file that cannot be read refused with its line, hand-entered rows,
// the list and the delete.

let t: TestApp;
let cookies: Record<string, string>;
const api = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, cookies, ...(payload ? { payload } : {}) });

type Listed = { rows: { date: string; source: string; campaign: string; cost: number }[]; totalCost: number };
const list = async (from = '2026-11-01', to = '2026-11-30') =>
  (await api('GET', `/api/admin/ad-costs?from=${from}&to=${to}`)).json() as Listed;

beforeAll(async () => {
  t = await startTestApp();
  await seedAdmin(t.app);
  cookies = await signIn(t.app);
});
afterAll(async () => {
  await t?.close();
});

describe('POST /api/admin/ad-costs', () => {
  it('imports a Google Ads report, and importing it again replaces the same days', async () => {
    const first = await api('POST', '/api/admin/ad-costs', { csv: GOOGLE_CSV });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ imported: 3, replaced: 0, skipped: [], merged: [] });
    const before = await list();
    expect(before.rows.filter((r) => r.source === 'google')).toEqual([
      expect.objectContaining({ date: '2026-11-01', campaign: 'Brand, Exact', cost: 1204.07 }),
      expect.objectContaining({ date: '2026-11-01', campaign: 'Spring Sale', cost: 120.5 }),
      expect.objectContaining({ date: '2026-11-02', campaign: 'Spring Sale', cost: 99.99 }),
    ]);

    const again = await api('POST', '/api/admin/ad-costs', { csv: GOOGLE_CSV });
    expect(again.json()).toEqual({ imported: 0, replaced: 3, skipped: [], merged: [] });
    expect(await list()).toEqual({
      ...before,
      rows: before.rows.map((r) => ({ ...r, importedAt: expect.any(String) })),
    });

    // A corrected day replaces the day (not added to it), whatever the case of the campaign's name.
    const corrected = await api('POST', '/api/admin/ad-costs', {
      rows: [{ date: '2026-11-02', source: 'Google', campaign: 'spring sale', cost: 100 }],
    });
    expect(corrected.json()).toEqual({ imported: 0, replaced: 1, skipped: [], merged: [] });
    const after = await list('2026-11-02', '2026-11-02');
    expect(after.rows.filter((r) => r.source === 'google')).toEqual([
      expect.objectContaining({ campaign: 'spring sale', cost: 100 }),
    ]);
  });

  it('imports a Microsoft Advertising report (preamble, total, footer) under bing', async () => {
    const res = await api('POST', '/api/admin/ad-costs', { csv: MICROSOFT_CSV });
    expect(res.json()).toEqual({ imported: 3, replaced: 0, skipped: [], merged: [] });
    const bing = (await list()).rows.filter((r) => r.source === 'bing');
    expect(bing.map((r) => [r.date, r.campaign, r.cost])).toEqual([
      ['2026-11-01', 'Spring Sale', 45.1],
      ['2026-11-02', 'Retargeting', 0.4],
      ['2026-11-02', 'Spring Sale', 38],
    ]);
    expect((await api('POST', '/api/admin/ad-costs', { csv: MICROSOFT_CSV })).json()).toEqual({
      imported: 0,
      replaced: 3,
      skipped: [],
      merged: [],
    });
  });

  it('imports a Meta Ads Manager report under facebook, skipping a row over two days', async () => {
    const res = await api('POST', '/api/admin/ad-costs', { csv: META_CSV });
    expect(res.json()).toEqual({
      imported: 2,
      replaced: 0,
      skipped: [
        { line: 5, reason: 'the row covers more than one day: export the report broken down by day' },
      ],
      merged: [],
    });
    const meta = (await list()).rows.filter((r) => r.source === 'facebook');
    expect(meta.map((r) => [r.date, r.campaign, r.cost])).toEqual([
      ['2026-11-01', 'Spring Sale', 55.2],
      ['2026-11-02', 'Spring Sale', 55],
    ]);
  });

  it('refuses a file it cannot read with its line, and imports nothing of it', async () => {
    const before = await list();
    const broken = GOOGLE_CSV.replace('2026-11-02,Spring Sale', '2026-11-31,Spring Sale').replace(
      '99.99',
      '12.00',
    );
    const res = await api('POST', '/api/admin/ad-costs', { csv: broken });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      error: 'validation_error',
      message: 'The file cannot be read: line 6: "2026-11-31" is not a day (YYYY-MM-DD or M/D/YYYY)',
      fieldErrors: [{ field: 'csv', message: expect.stringContaining('line 6') }],
    });
    const unknown = await api('POST', '/api/admin/ad-costs', { csv: 'Name,Value\nSpring,12\n' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toContain('line 1: no header line');
    expect(await list()).toEqual(before);
  });

  it('takes rows by hand: another currency is skipped, a bad field is a 400 naming it', async () => {
    const res = await api('POST', '/api/admin/ad-costs', {
      rows: [
        { date: '2026-11-03', source: 'tiktok', campaign: 'Launch', cost: 12.5 },
        { date: '2026-11-03', source: 'tiktok', campaign: 'Euro', cost: 3, currency: 'eur' },
      ],
    });
    expect(res.json()).toEqual({
      imported: 1,
      replaced: 0,
      skipped: [{ line: 2, reason: 'the cost is in EUR, not USD' }],
      merged: [],
    });

    const bad = await api('POST', '/api/admin/ad-costs', {
      rows: [{ date: '2026-11-03', source: 'tiktok', campaign: 'Launch', cost: 1.234 }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toEqual([
      { field: 'rows.0.cost', message: expect.stringContaining('2 decimals') },
    ]);
    const badDate = await api('POST', '/api/admin/ad-costs', {
      rows: [{ date: '2026-02-30', source: 'tiktok', campaign: 'Launch', cost: 1 }],
    });
    expect(badDate.json().fieldErrors).toEqual([
      { field: 'rows.0.date', message: 'date must be a date YYYY-MM-DD' },
    ]);
    const both = await api('POST', '/api/admin/ad-costs', { rows: [], csv: 'x' });
    expect(both.statusCode).toBe(400);
    expect((await api('POST', '/api/admin/ad-costs', {})).statusCode).toBe(400);
  });
});

describe('one rule for rows and files (issue 47)', () => {
  const HEADER = 'Day,Campaign,Currency code,Cost';

  it('refuses a file whose rows break a row’s limits, naming every such row, and imports nothing', async () => {
    const before = await list('2026-11-01', '2026-12-31');
    const csv = [
      HEADER,
      '2026-12-01,Limits,USD,1.00',
      '2026-12-02,Limits,USD,1.005', // a fraction of a cent: the rows import refuses 1.005
      '2026-12-03,Limits,USD,"99,999,999,999"', // above the largest cost of a day
      '2026-12-04,Limits,USD,2.50',
      '2026-12-05,Limits,USD,3.000', // whole cents with a third digit: taken as $3.00
    ].join('\n');
    const res = await api('POST', '/api/admin/ad-costs', { csv });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      error: 'validation_error',
      message:
        'The file cannot be read: line 3: "1.005" has more than 2 decimals: costs are whole cents, and a fraction is not rounded (and 1 more line)',
      fieldErrors: [
        {
          field: 'csv',
          message:
            'line 3: "1.005" has more than 2 decimals: costs are whole cents, and a fraction is not rounded',
        },
        {
          field: 'csv',
          message: 'line 4: "99,999,999,999" is more than $10,000,000.00, the largest cost of a day',
        },
      ],
    });
    expect(await list('2026-11-01', '2026-12-31')).toEqual(before);
    // The same values as rows are refused by the rows import, as before.
    for (const cost of [1.005, 99_999_999_999]) {
      const rows = await api('POST', '/api/admin/ad-costs', {
        rows: [{ date: '2026-12-02', source: 'google', campaign: 'Limits', cost }],
      });
      expect(rows.statusCode, String(cost)).toBe(400);
    }
    // Without the bad lines the file goes in, 3.000 as $3.00.
    const good = [HEADER, '2026-12-05,Limits,USD,3.000', '2026-12-06,Limits,USD,"10,000,000.00"'].join('\n');
    expect((await api('POST', '/api/admin/ad-costs', { csv: good })).json()).toMatchObject({ imported: 2 });
    expect((await list('2026-12-05', '2026-12-06')).rows.map((r) => r.cost)).toEqual([3, 10_000_000]);
  });

  it('says which lines it merged: the same day and campaign, case and spaces aside', async () => {
    const csv = [
      HEADER,
      '2026-12-10,Winter Sale,USD,10.00',
      '2026-12-10,winter sale ,USD,5.25',
      '2026-12-10,Other,USD,1.00',
      '2026-12-10,WINTER SALE,USD,0.75',
      '2026-12-11,Winter Sale,USD,2.00',
    ].join('\n');
    const res = await api('POST', '/api/admin/ad-costs', { csv });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      imported: 3,
      replaced: 0,
      skipped: [],
      merged: [{ lines: [2, 3, 5], date: '2026-12-10', source: 'google', campaign: 'Winter Sale', cost: 16 }],
    });
    const rows = await api('POST', '/api/admin/ad-costs', {
      rows: [
        { date: '2026-12-12', source: 'tiktok', campaign: 'Launch', cost: 1 },
        { date: '2026-12-12', source: ' TikTok', campaign: 'launch', cost: 2 },
      ],
    });
    expect(rows.json()).toMatchObject({
      imported: 1,
      merged: [{ lines: [1, 2], date: '2026-12-12', source: 'tiktok', campaign: 'Launch', cost: 3 }],
    });
  });
});

describe('GET and DELETE /api/admin/ad-costs', () => {
  it('lists a range with its sum, and deletes one campaign’s days or a source’s', async () => {
    const day1 = await list('2026-11-01', '2026-11-01');
    expect(day1.totalCost).toBe(1424.87);
    expect((await api('GET', '/api/admin/ad-costs?from=2026-11-02&to=2026-11-01')).statusCode).toBe(400);

    const one = await api(
      'DELETE',
      '/api/admin/ad-costs?source=bing&campaign=SPRING%20SALE&from=2026-11-01&to=2026-11-30',
    );
    expect(one.json()).toEqual({ deleted: 2 });
    expect((await list()).rows.filter((r) => r.source === 'bing').map((r) => r.campaign)).toEqual([
      'Retargeting',
    ]);
    const all = await api('DELETE', '/api/admin/ad-costs?source=google&from=2026-11-01&to=2026-11-30');
    expect(all.json()).toEqual({ deleted: 3 });
    expect(
      (await api('DELETE', '/api/admin/ad-costs?from=2026-11-01&to=2026-11-30')).json().fieldErrors,
    ).toEqual([{ field: 'source', message: 'source is required' }]);
  });

  it('is for admins only', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/admin/ad-costs?from=2026-11-01&to=2026-11-02',
    });
    expect(res.statusCode).toBe(401);
  });
});
