import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dateAndTimeIn } from '../src/platform/time';
import { seedAdmin, signIn } from './support/admin';
import { insertApiLead, insertWebsiteLead, parseCsv } from './support/leads';
import { startTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let cookies: Record<string, string>;
const TZ = 'America/Chicago';

beforeAll(async () => {
  t = await startTestApp({ TIME_ZONE: TZ });
  await seedAdmin(t.app);
  cookies = await signIn(t.app);
});
afterAll(async () => {
  await t?.close();
});

const WEBSITE_HEADER = [
  'id',
  'firstName',
  'lastName',
  'email',
  'phone',
  'streetAddress',
  'zipCode',
  'state',
  'birthMonth',
  'birthDay',
  'birthYear',
  'optInDate',
  'optInTime',
  'certificationId',
  'leadSource',
  'tcpaCompliant',
  'beneficiary',
  'ipAddress',
  'trustedFormUrl',
  'createdAt',
  'consentGiven',
  'optedOut',
  'doNotSell',
  'channel',
  'source',
  'medium',
  'campaign',
  // After the spec's columns and issue 15's: the visit's click ids (issue 24).
  'gclid',
  'gbraid',
  'wbraid',
  'fbclid',
  'fbc',
  'fbp',
  'msclkid',
  'ttclid',
  // The landing experiment and arm of the lead's page (issue 48).
  'experiment',
  'arm',
  // Lead quality (issue 33): the verdict and its reason codes.
  'verdict',
  'reasons',
];

async function exportCsv(url: string) {
  const res = await t.app.inject({ url, cookies });
  expect(res.statusCode).toBe(200);
  const body = res.rawPayload.toString('utf8');
  expect(body.startsWith('\uFEFF')).toBe(true);
  const [header = [], ...rows] = parseCsv(body.slice(1));
  return { res, header, rows: rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]]))) };
}

describe('website leads CSV export', () => {
  beforeAll(async () => {
    const pool = t.app.db.pool;
    await insertWebsiteLead(pool, {
      firstName: 'Zoë "Zee"',
      lastName: 'O’Brien, Jr.',
      streetAddress: 'Apt 4\nLine two',
      state: 'IL',
      consentGiven: true,
      createdAt: new Date('2026-05-01T12:00:00Z'),
    });
    await insertWebsiteLead(pool, {
      firstName: '=HYPERLINK("http://evil.example","click")',
      lastName: '+SUM(A1:A9)',
      streetAddress: '-2+3',
      beneficiary: '@cmd',
      phone: '\t0800',
      zipCode: '\r60601',
      state: 'IL',
      consentGiven: false,
      createdAt: new Date('2026-05-02T12:00:00Z'),
    });
    await insertWebsiteLead(pool, {
      state: 'WI',
      consentGiven: true,
      createdAt: new Date('2026-05-03T12:00:00Z'),
    });
  });

  it('is a UTF-8 CSV download named website-leads-<today>.csv with every field', async () => {
    const { res, header, rows } = await exportCsv('/api/admin/export');
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const today = dateAndTimeIn(new Date(), TZ).date;
    expect(res.headers['content-disposition']).toBe(`attachment; filename="website-leads-${today}.csv"`);
    expect(header).toEqual(WEBSITE_HEADER);
    expect(rows).toHaveLength(3);
    // Newest first, like the table.
    expect(rows.map((r) => r.state)).toEqual(['WI', 'IL', 'IL']);
  });

  it('quotes per RFC 4180 and keeps non-ASCII text intact', async () => {
    const { rows } = await exportCsv('/api/admin/export?consentGiven=true&state=IL');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      firstName: 'Zoë "Zee"',
      lastName: 'O’Brien, Jr.',
      streetAddress: 'Apt 4\nLine two',
      birthYear: '1970',
      consentGiven: 'true',
      createdAt: '2026-05-01T07:00:00.000-05:00', // TIME_ZONE with its offset (issue 26)
    });
  });

  it('neutralises cells that a spreadsheet would run as a formula', async () => {
    const { rows } = await exportCsv('/api/admin/export?consentGiven=false');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      firstName: `'=HYPERLINK("http://evil.example","click")`,
      lastName: `'+SUM(A1:A9)`,
      streetAddress: `'-2+3`,
      beneficiary: `'@cmd`,
      phone: `'\t0800`,
      zipCode: `'\r60601`,
      consentGiven: 'false',
    });
  });

  it('applies the list filters (dates in the business time zone)', async () => {
    const byState = await exportCsv('/api/admin/export?state=WI');
    expect(byState.rows.map((r) => r.state)).toEqual(['WI']);
    const byDate = await exportCsv('/api/admin/export?startDate=2026-05-02&endDate=2026-05-02');
    expect(byDate.rows.map((r) => r.lastName)).toEqual([`'+SUM(A1:A9)`]);
    const none = await exportCsv('/api/admin/export?birthYear=1901');
    expect(none.header).toEqual(WEBSITE_HEADER);
    expect(none.rows).toEqual([]);
    const bad = await t.app.inject({ url: '/api/admin/export?state=ZZ', cookies });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('validation_error');
  });

  it('records the export in the audit log', async () => {
    const res = await t.app.inject({ url: '/api/admin/audit-log', cookies });
    const exports = (res.json() as { action: string; actor: string; detail: { rows: number } }[]).filter(
      (e) => e.action === 'leads.export',
    );
    expect(exports.length).toBe(6);
    expect(exports[0]?.actor).toBe('alice');
    expect(exports.map((e) => e.detail.rows)).toContain(3);
  });
});

describe('API leads CSV export', () => {
  it('is named api-leads-<today>.csv, has the API-lead fields and honours the filters', async () => {
    await insertApiLead(t.app.db.pool, {
      state: 'TX',
      city: '@Austin',
      createdAt: new Date('2026-06-01T12:00:00Z'),
    });
    await insertApiLead(t.app.db.pool, { state: 'FL', createdAt: new Date('2026-06-02T12:00:00Z') });
    const { res, header, rows } = await exportCsv('/api/admin/export-api-leads?state=TX');
    const today = dateAndTimeIn(new Date(), TZ).date;
    expect(res.headers['content-disposition']).toBe(`attachment; filename="api-leads-${today}.csv"`);
    expect(header).toEqual([
      'id',
      'firstName',
      'lastName',
      'streetAddress',
      'city',
      'state',
      'phone',
      'birthMonth',
      'birthDay',
      'birthYear',
      'beneficiary',
      'trustedFormUrl',
      'createdAt',
      'optedOut',
      'verdict',
      'reasons',
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      state: 'TX',
      city: "'@Austin",
      createdAt: '2026-06-01T07:00:00.000-05:00',
    });
    const all = await exportCsv('/api/admin/export-api-leads?state=all&birthYear=');
    expect(all.rows).toHaveLength(2);
  });
});

describe('a download cut short', () => {
  it('frees its database connection and records the export as incomplete', async () => {
    const pool = t.app.db.pool;
    await pool.query(
      `insert into website_lead (first_name, last_name, email, phone, street_address, zip_code, state,
         birth_month, birth_day, birth_year, consent_given, opt_in_date, opt_in_time)
       select 'Many', 'Row' || g, 'many' || g || '@example.com', '555-555-5555', repeat('x', 200), '10001', 'VT',
         1, 1, 1950, true, '2026-01-01', '00:00:00'
       from generate_series(1, 60000) g`,
    );
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { request } = await import('node:http');
    const cookie = `uf_admin=${cookies.uf_admin}`;
    for (const path of ['/api/admin/export?state=VT', '/api/admin/leads?state=VT']) {
      await new Promise<void>((resolve, reject) => {
        const req = request(`${address}${path}`, { headers: { cookie } }, (res) => {
          expect(res.statusCode).toBe(200);
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        });
        req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
        req.end();
      });
    }
    // No COPY or cursor is left running, and the pool still answers.
    await expect
      .poll(
        async () =>
          (
            await pool.query(
              `select count(*)::int as n from pg_stat_activity
               where datname = current_database() and (query ilike 'copy (%' or query ilike 'fetch %')
                 and state <> 'idle'`,
            )
          ).rows[0].n,
        { timeout: 10_000 },
      )
      .toBe(0);
    expect((await pool.query('select 1 as ok')).rows[0].ok).toBe(1);
    await expect
      .poll(async () => {
        const res = await t.app.inject({ url: '/api/admin/audit-log', cookies });
        return (res.json() as { action: string; detail: { completed?: boolean } }[]).some(
          (e) => e.action === 'leads.export' && e.detail.completed === false,
        );
      })
      .toBe(true);
  });
});
