import { CONSENT_TEXT, CONSENT_TEXT_VERSION } from '@uf/shared/consent';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leadBody } from './support/fixtures';
import { startTestApp, type TestApp } from './support/test-app';

let t: TestApp;
const PAGE = 'https://unclaimedfundsfinder.com/?utm_source=test';
const CERT = 'https://cert.trustedform.com/0123456789abcdef0123456789abcdef01234567';

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

function submit(
  body: Record<string, unknown>,
  headers: Record<string, string> = { 'user-agent': 'vitest-browser' },
) {
  return t.app.inject({ method: 'POST', url: '/api/submit-search', payload: body, headers });
}

const q = async (sql: string, params: unknown[] = []) => (await t.app.db.pool.query(sql, params)).rows;

describe('consent receipt of a website lead', () => {
  it('is written with the lead: text by hash, time, IP, user agent, page URL, consent; certificationId = receipt id', async () => {
    const res = await submit({ ...leadBody(), pageUrl: PAGE });
    expect(res.statusCode).toBe(200);
    const { id } = res.json();
    const [lead] = await q('select * from website_lead where id = $1', [id]);
    const [receipt] = await q('select * from consent_receipt where lead_id = $1', [id]);
    expect(receipt).toMatchObject({
      id: lead.certification_id,
      consent_given: true,
      consent_text_version: CONSENT_TEXT_VERSION,
      ip_address: '127.0.0.1',
      user_agent: 'vitest-browser',
      page_url: PAGE,
      trusted_form_url: null,
      gpc: false,
    });
    expect(receipt.created_at.getTime()).toBe(lead.created_at.getTime());
    const [text] = await q('select * from consent_text where hash = $1', [receipt.consent_text_hash]);
    expect(text.body).toBe(CONSENT_TEXT);
    expect(lead.tcpa_compliant).toBe('true');
  });

  it('stores the disclosure text once, however many leads point at it', async () => {
    await submit({ ...leadBody(), pageUrl: PAGE });
    await submit({ ...leadBody(), pageUrl: PAGE });
    const [{ n }] = await q('select count(*)::int as n from consent_text');
    expect(n).toBe(1);
  });

  it('can never be changed afterwards (receipts and texts refuse UPDATE)', async () => {
    const { id } = (await submit({ ...leadBody(), pageUrl: PAGE })).json();
    await expect(
      q("update consent_receipt set ip_address = '6.6.6.6' where lead_id = $1", [id]),
    ).rejects.toThrow(/immutable/);
    await expect(q("update consent_text set body = 'something else'")).rejects.toThrow(/immutable/);
    const [receipt] = await q('select ip_address from consent_receipt where lead_id = $1', [id]);
    expect(receipt.ip_address).toBe('127.0.0.1');
  });

  it('exists for every lead and only for stored leads, also under 30 concurrent submissions', async () => {
    const bodies = Array.from({ length: 30 }, () => ({ ...leadBody(), pageUrl: PAGE }));
    const dup = bodies[0]!;
    const results = await Promise.all([...bodies, dup, dup].map((b) => submit(b)));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(30);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(2);
    const [row] = await q(
      `select (select count(*)::int from website_lead) as leads, (select count(*)::int from consent_receipt) as receipts,
              (select count(*)::int from website_lead l where not exists
                 (select 1 from consent_receipt r where r.lead_id = l.id and r.id::text = l.certification_id)) as missing`,
    );
    expect(row.receipts).toBe(row.leads);
    expect(row.missing).toBe(0);
  });

  it('is atomic with the lead: when the receipt cannot be written, no lead is stored either', async () => {
    // Make the receipt insert fail for one user agent; the lead row must roll back with it.
    await q(
      "alter table consent_receipt add constraint test_refuse check (user_agent is distinct from 'refuse-receipt')",
    );
    try {
      const body = leadBody();
      const res = await submit({ ...body, pageUrl: PAGE }, { 'user-agent': 'refuse-receipt' });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({
        error: 'internal_error',
        message: 'Something went wrong on our side. Please try again.',
      });
      const rows = await q('select id from website_lead where lower(email) = lower($1)', [body.email]);
      expect(rows).toHaveLength(0);
    } finally {
      await q('alter table consent_receipt drop constraint test_refuse');
    }
  });
});

describe('tcpaCompliant', () => {
  const tcpaOf = async (id: string) =>
    (await q('select tcpa_compliant from website_lead where id = $1', [id]))[0].tcpa_compliant;

  it("is 'true' with consent and a complete receipt", async () => {
    const { id } = (await submit({ ...leadBody(), pageUrl: PAGE })).json();
    expect(await tcpaOf(id)).toBe('true');
  });

  it('takes the page URL from the Referer when the form did not send it', async () => {
    const { id } = (
      await submit(leadBody(), { 'user-agent': 'ua', referer: 'https://example.org/landing' })
    ).json();
    expect((await q('select page_url from consent_receipt where lead_id = $1', [id]))[0].page_url).toBe(
      'https://example.org/landing',
    );
    expect(await tcpaOf(id)).toBe('true');
  });

  it("is 'false' when the receipt lacks the page or the user agent", async () => {
    const noPage = (await submit(leadBody(), { 'user-agent': 'ua' })).json();
    expect(await tcpaOf(noPage.id)).toBe('false');
    // light-my-request sends its own user agent unless one is given: an empty one is none.
    const noAgent = (await submit({ ...leadBody(), pageUrl: PAGE }, { 'user-agent': '' })).json();
    expect(await tcpaOf(noAgent.id)).toBe('false');
    const [receipt] = await q('select user_agent, page_url from consent_receipt where lead_id = $1', [
      noAgent.id,
    ]);
    expect(receipt).toEqual({ user_agent: null, page_url: PAGE });
  });

  it('refuses a page URL that is not http(s) and a malformed TrustedForm URL', async () => {
    const bad = await submit({
      ...leadBody(),
      pageUrl: 'javascript:alert(1)',
      trustedFormUrl: 'https://evil.example/x',
    });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .fieldErrors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['pageUrl', 'trustedFormUrl']);
  });

  it('ignores a TrustedForm URL when TRUSTEDFORM_ENABLED is off', async () => {
    const { id } = (await submit({ ...leadBody(), pageUrl: PAGE, trustedFormUrl: CERT })).json();
    const [lead] = await q('select trusted_form_url from website_lead where id = $1', [id]);
    expect(lead.trusted_form_url).toBeNull();
  });
});

describe('Global Privacy Control', () => {
  it('records Sec-GPC: 1 at submit as do-not-sell on the lead and in the receipt', async () => {
    const withGpc = (
      await submit({ ...leadBody(), pageUrl: PAGE }, { 'user-agent': 'ua', 'sec-gpc': '1' })
    ).json();
    const without = (await submit({ ...leadBody(), pageUrl: PAGE }, { 'user-agent': 'ua' })).json();
    const rows = await q(
      'select l.id, l.do_not_sell, r.gpc from website_lead l join consent_receipt r on r.lead_id = l.id where l.id = any($1)',
      [[withGpc.id, without.id]],
    );
    expect(rows.find((r) => r.id === withGpc.id)).toMatchObject({ do_not_sell: true, gpc: true });
    expect(rows.find((r) => r.id === without.id)).toMatchObject({ do_not_sell: false, gpc: false });
  });
});

describe('TrustedForm enabled', () => {
  it('stores the certificate URL on the lead and in the receipt', async () => {
    const enabled = await startTestApp({ TRUSTEDFORM_ENABLED: 'true' });
    try {
      const res = await enabled.app.inject({
        method: 'POST',
        url: '/api/submit-search',
        payload: { ...leadBody(), pageUrl: PAGE, trustedFormUrl: CERT },
        headers: { 'user-agent': 'ua' },
      });
      const { id } = res.json();
      const [row] = (
        await enabled.app.db.pool.query(
          'select l.trusted_form_url as lead_url, r.trusted_form_url as receipt_url from website_lead l join consent_receipt r on r.lead_id = l.id where l.id = $1',
          [id],
        )
      ).rows;
      expect(row).toEqual({ lead_url: CERT, receipt_url: CERT });
    } finally {
      await enabled.close();
    }
  });
});

describe('GET /api/admin/leads/{id}/consent-receipt', () => {
  it('shows the receipt with its exact text to a signed-in admin only', async () => {
    const { seedAdmin, signIn } = await import('./support/admin');
    await seedAdmin(t.app);
    const cookies = await signIn(t.app);
    const { id } = (
      await submit({ ...leadBody(), pageUrl: PAGE }, { 'user-agent': 'ua', 'sec-gpc': '1' })
    ).json();
    const anonymous = await t.app.inject({ url: `/api/admin/leads/${id}/consent-receipt` });
    expect(anonymous.statusCode).toBe(401);
    const res = await t.app.inject({ url: `/api/admin/leads/${id}/consent-receipt`, cookies });
    expect(res.statusCode).toBe(200);
    const [lead] = await q('select certification_id from website_lead where id = $1', [id]);
    expect(res.json()).toMatchObject({
      id: lead.certification_id,
      leadId: id,
      consentGiven: true,
      ipAddress: '127.0.0.1',
      userAgent: 'ua',
      pageUrl: PAGE,
      gpc: true,
      tcpaCompliant: 'true',
      consentText: { version: CONSENT_TEXT_VERSION, body: CONSENT_TEXT },
    });
    const missing = await t.app.inject({
      url: `/api/admin/leads/${crypto.randomUUID()}/consent-receipt`,
      cookies,
    });
    expect(missing.statusCode).toBe(404);
  });
});
