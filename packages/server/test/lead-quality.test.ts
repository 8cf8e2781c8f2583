import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/partners/partner-key.service';
import { leadBody, visitorLeadBody } from './support/fixtures';
import { partnerLeadBody, postPartnerLead } from './support/partner';
import { BROWSER_UA, formToken, SECONDS_ON_PAGE, submitAsVisitor, visitorAddress } from './support/visitor';
import { startWebhookTestbed, type WebhookTestbed } from './support/webhooks';

// Lead quality (issue 33): every door gives each lead a verdict, the visitor's flow never changes, only
// accepted leads leave, and the admin reviews the rest.

let bed: WebhookTestbed;
let partnerKey: string;
beforeAll(async () => {
  bed = await startWebhookTestbed({ WEBHOOKS_RETRY_SCHEDULE: '0.2,0.2,0.2' });
  partnerKey = (await createApiKey(bed.t.app.db.orm.em.fork(), 'Quality Partner')).secret;
});
afterAll(async () => {
  await bed?.close();
});

type Quality = {
  verdict: string;
  reasons: string[];
  decidedBy: string;
  decidedAt: string | null;
  rulesVersion: number;
};
type Detail = { id: string; quality: Quality; signals: Record<string, unknown> | null };

const TRUSTEDFORM = 'https://cert.trustedform.com/0123456789abcdef0123456789abcdef01234567';

async function lead(id: string, table: 'leads' | 'api-leads' = 'leads'): Promise<Detail> {
  const res = await bed.api('GET', `/api/admin/${table}/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Detail;
}

/** A JSON submission with its own headers (no token, no clock), as a script would send it. */
function post(
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
  remoteAddress = visitorAddress(),
) {
  return bed.t.app.inject({
    method: 'POST',
    url: '/api/submit-search',
    payload: body,
    headers,
    remoteAddress,
  });
}

async function submittedId(res: { statusCode: number; body: string; json(): unknown }): Promise<string> {
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { id: string }).id;
}

describe('the verdict at every door', () => {
  it('accepts a visitor through the JSON API, with the rules version and no reasons', async () => {
    const id = await submittedId(await bed.submit(visitorLeadBody()));
    const { quality, signals } = await lead(id);
    expect(quality).toMatchObject({ verdict: 'accept', reasons: [], decidedBy: 'rules', rulesVersion: 1 });
    expect(quality.decidedAt).toMatch(/Z$/);
    expect(signals).toMatchObject({ token: 'ok', honeypot: false, automation: false, userAgent: 'browser' });
    expect(Number(signals?.secondsToSubmit)).toBeGreaterThanOrEqual(SECONDS_ON_PAGE);
  });

  it('rejects the issue’s three scripted leads, yet answers them exactly as it answers a person', async () => {
    const scripted = [
      { firstName: 'Asdf', lastName: 'Asdf', phone: '(212) 555-0123', email: 'x1@mailinator.com' },
      { firstName: 'Mickey', lastName: 'Mouse', phone: '212-911-1234', email: 'mickey@gmial.com' },
      { firstName: 'Test', lastName: 'Test', phone: '800-555-1000', email: 'test@example.com' },
    ];
    for (const fields of scripted) {
      const res = await post(visitorLeadBody({ ...fields, birthMonth: '2', birthDay: '30' }), {
        'user-agent': 'curl/8.5.0',
      });
      // The flow never changes: 200 with an id, like any lead.
      const { quality } = await lead(await submittedId(res));
      expect(quality.verdict).toBe('reject');
      expect(quality.reasons).toEqual(expect.arrayContaining(['BOT_NO_TOKEN', 'BOT_UA', 'DOB_INVALID']));
    }
  });

  it('names each field reason of the scripted leads', async () => {
    const cases: [Record<string, string>, string[]][] = [
      [{ firstName: 'Asdf', lastName: 'Asdf' }, ['NAME_TEST']],
      [{ phone: '(212) 555-0187' }, ['PHONE_FICTIONAL']],
      [{ phone: '212-411-1234' }, ['PHONE_N11']],
      [{ phone: '(888) 431-2876' }, ['PHONE_NOT_PERSONAL']],
      [{ email: 'someone@mailinator.com' }, ['EMAIL_DISPOSABLE']],
      [{ email: 'someone@gmial.com' }, ['EMAIL_TYPO']],
      [{ email: 'someone@example.com' }, ['EMAIL_RESERVED']],
      [{ birthMonth: '2', birthDay: '30' }, ['DOB_INVALID']],
      [{ zipCode: '00000' }, ['ZIP_UNKNOWN']],
    ];
    for (const [fields, reasons] of cases) {
      const { quality } = await lead(await submittedId(await bed.submit(visitorLeadBody(fields))));
      expect(quality.reasons, JSON.stringify(fields)).toEqual(reasons);
    }
  });

  it('judges the site’s own form call (tRPC) the same way', async () => {
    const token = await formToken(bed.t.app);
    bed.clock.advance(SECONDS_ON_PAGE);
    const res = await bed.t.app.inject({
      method: 'POST',
      url: '/api/trpc/lead.submit',
      payload: { ...visitorLeadBody(), formToken: token },
      headers: { 'user-agent': BROWSER_UA },
      remoteAddress: visitorAddress(),
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = (res.json() as { result: { data: { id: string } } }).result.data.id;
    expect((await lead(id)).quality.verdict).toBe('accept');
  });

  it('judges the partner API’s leads by what their fields allow, and answers the verdict', async () => {
    const good = await postPartnerLead(
      bed.t.app,
      partnerKey,
      partnerLeadBody({ phone: '(512) 448-7710', trustedFormUrl: TRUSTEDFORM }),
    );
    expect(good.statusCode, good.body).toBe(201);
    expect(good.json()).toMatchObject({ verdict: 'accept', reasons: [] });

    // No consent evidence: never sold.
    const bare = await postPartnerLead(bed.t.app, partnerKey, partnerLeadBody({ phone: '(512) 448-7711' }));
    expect(bare.json()).toMatchObject({ verdict: 'reject', reasons: ['CONSENT_MISSING'] });
    const { id } = bare.json() as { id: string };
    expect((await lead(id, 'api-leads')).quality.reasons).toEqual(['CONSENT_MISSING']);

    // The same phone as a website lead: a duplicate across the two kinds.
    const web = visitorLeadBody();
    await submittedId(await bed.submit(web));
    const twin = await postPartnerLead(
      bed.t.app,
      partnerKey,
      partnerLeadBody({ phone: web.phone, trustedFormUrl: TRUSTEDFORM }),
    );
    expect(twin.json()).toMatchObject({ verdict: 'hold', reasons: ['DUPLICATE_PHONE'] });
  });
});

describe('bot signals', () => {
  it('rejects a lead without a token or with a forged one', async () => {
    for (const formToken of [
      undefined,
      'v1.abc.def.ghi',
      'v1.mk3f0a.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA',
    ]) {
      const res = await post(
        { ...visitorLeadBody(), ...(formToken ? { formToken } : {}) },
        { 'user-agent': BROWSER_UA },
      );
      const { quality, signals } = await lead(await submittedId(res));
      expect(quality).toMatchObject({ verdict: 'reject', reasons: ['BOT_NO_TOKEN'] });
      expect(signals?.token).toBe(formToken ? 'forged' : 'missing');
    }
  });

  it('holds a lead sent sooner than a person could fill the form in', async () => {
    const token = await formToken(bed.t.app);
    bed.clock.advance(1);
    const { quality, signals } = await lead(
      await submittedId(await post({ ...visitorLeadBody(), formToken: token }, { 'user-agent': BROWSER_UA })),
    );
    expect(quality).toMatchObject({ verdict: 'hold', reasons: ['BOT_TOO_FAST'] });
    expect(signals?.secondsToSubmit).toBe(1);
  });

  it('holds a lead whose token is older than 2 hours', async () => {
    const token = await formToken(bed.t.app);
    bed.clock.advance(2 * 3600 + 60);
    const res = await post({ ...visitorLeadBody(), formToken: token }, { 'user-agent': BROWSER_UA });
    expect((await lead(await submittedId(res))).quality).toMatchObject({
      verdict: 'hold',
      reasons: ['BOT_TOKEN_EXPIRED'],
    });
  });

  it('holds the second lead that brings a token another lead already used', async () => {
    const token = await formToken(bed.t.app);
    bed.clock.advance(SECONDS_ON_PAGE);
    const first = await submittedId(
      await post({ ...visitorLeadBody(), formToken: token }, { 'user-agent': BROWSER_UA }),
    );
    const second = await submittedId(
      await post({ ...visitorLeadBody(), formToken: token }, { 'user-agent': BROWSER_UA }),
    );
    expect((await lead(first)).quality.verdict).toBe('accept');
    const { quality, signals } = await lead(second);
    expect(quality).toMatchObject({ verdict: 'hold', reasons: ['BOT_TOKEN_REUSED'] });
    expect(signals?.tokenUsedBy).toBe(first);
  });

  it('holds a filled honeypot, and rejects it beside another bot signal', async () => {
    const alone = await submittedId(
      await bed.submit({ ...visitorLeadBody(), referenceCode: 'http://spam.example' }),
    );
    expect((await lead(alone)).quality).toMatchObject({ verdict: 'hold', reasons: ['BOT_HONEYPOT'] });
    const withNoToken = await submittedId(
      await post({ ...visitorLeadBody(), referenceCode: 'x' }, { 'user-agent': BROWSER_UA }),
    );
    expect((await lead(withNoToken)).quality).toMatchObject({
      verdict: 'reject',
      reasons: ['BOT_NO_TOKEN', 'BOT_HONEYPOT'],
    });
  });

  it('rejects a crawler’s or a missing user agent, and holds a browser that reports automation', async () => {
    const crawler = await submittedId(
      await submitAsVisitor(bed.t.app, bed.clock, visitorLeadBody(), {
        headers: { 'user-agent': 'python-requests/2.31' },
      }),
    );
    expect((await lead(crawler)).quality).toMatchObject({ verdict: 'reject', reasons: ['BOT_UA'] });
    const automated = await submittedId(await bed.submit({ ...visitorLeadBody(), automation: true }));
    expect((await lead(automated)).quality).toMatchObject({ verdict: 'hold', reasons: ['BOT_AUTOMATION'] });
  });

  it('keeps the spec’s own answers: 409 duplicate_email and 400 age_restriction', async () => {
    const body = visitorLeadBody();
    await submittedId(await bed.submit(body));
    const again = await bed.submit({ ...visitorLeadBody(), email: body.email });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: 'duplicate_email' });
    const young = await bed.submit(visitorLeadBody({ birthYear: '2001' }));
    expect(young.statusCode).toBe(400);
    expect(young.json()).toMatchObject({ error: 'age_restriction' });
  });
});

describe('duplicates and velocity', () => {
  it('holds the same mailbox under a Gmail alias', async () => {
    const first = visitorLeadBody({ email: 'dana.whitfield.77@gmail.com' });
    await submittedId(await bed.submit(first));
    const alias = await submittedId(
      await bed.submit(visitorLeadBody({ email: 'DanaWhitfield77+offers@googlemail.com' })),
    );
    const { quality, signals } = await lead(alias);
    expect(quality).toMatchObject({ verdict: 'hold', reasons: ['DUPLICATE_EMAIL_ALIAS'] });
    expect(signals?.duplicateEmailIds).toHaveLength(1);
  });

  it('accepts one of ten simultaneous leads with one phone, and holds the other nine', async () => {
    const phone = '(617) 492-3385';
    const tokens = await Promise.all(Array.from({ length: 10 }, () => formToken(bed.t.app)));
    bed.clock.advance(SECONDS_ON_PAGE);
    const answers = await Promise.all(
      tokens.map((token) =>
        post({ ...visitorLeadBody({ phone }), formToken: token }, { 'user-agent': BROWSER_UA }),
      ),
    );
    const verdicts = await Promise.all(
      answers.map(async (res) => (await lead(await submittedId(res))).quality),
    );
    expect(verdicts.filter((q) => q.verdict === 'accept')).toHaveLength(1);
    expect(
      verdicts.filter((q) => q.verdict === 'hold' && q.reasons.join() === 'DUPLICATE_PHONE'),
    ).toHaveLength(9);
  });

  it('holds the fourth lead from one address within 10 minutes, never rejects for it', async () => {
    const address = '203.0.113.77';
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      ids.push(
        await submittedId(
          await submitAsVisitor(bed.t.app, bed.clock, visitorLeadBody(), { remoteAddress: address }),
        ),
      );
    }
    const qualities = await Promise.all(ids.map(async (id) => (await lead(id)).quality));
    expect(qualities.map((q) => q.verdict)).toEqual(['accept', 'accept', 'accept', 'hold']);
    expect(qualities[3]?.reasons).toEqual(['VELOCITY_IP']);
    expect((await lead(ids[3] ?? '')).signals).toMatchObject({ ipLast10Minutes: 3 });
  });
});

describe('only good leads leave', () => {
  it('delivers an accepted lead, holds a held one back until an admin releases it, and never sends a rejected one', async () => {
    const endpoint = await bed.createEndpoint();
    const leadIds = (path: string) =>
      bed.rx.at(path).map((m) => (JSON.parse(m.body) as { data: { id: string } }).data.id);

    const accepted = await submittedId(await bed.submit(visitorLeadBody()));
    const held = await submittedId(await bed.submit(visitorLeadBody({ email: 'pat.rivers@hotmial.com' })));
    const rejected = await submittedId(await post(visitorLeadBody(), { 'user-agent': BROWSER_UA }));
    await bed.rx.waitFor(() => leadIds(endpoint.path).includes(accepted));
    expect((await lead(held)).quality.verdict).toBe('hold');
    // Nothing else is on its way: the outbox and the endpoint's deliveries hold only the accepted lead.
    const queued = await bed.t.app.db.pool.query<{ lead_id: string }>(
      'select lead_id from webhook_delivery where endpoint_id = $1',
      [endpoint.id],
    );
    expect(queued.rows.map((r) => r.lead_id)).toEqual([accepted]);

    // Release: delivered at once, decided by the admin, audited.
    const released = await bed.api('POST', `/api/admin/leads/${held}/verdict`, {
      verdict: 'accept',
      note: 'Called her',
    });
    expect(released.statusCode, released.body).toBe(200);
    expect(released.json()).toMatchObject({
      id: held,
      delivered: true,
      quality: { verdict: 'accept', decidedBy: 'alice' },
    });
    await bed.rx.waitFor(() => leadIds(endpoint.path).includes(held));
    // Releasing it again sends nothing more.
    expect(
      (await bed.api('POST', `/api/admin/leads/${held}/verdict`, { verdict: 'accept' })).json(),
    ).toMatchObject({
      delivered: false,
    });
    const audit = (await bed.api('GET', `/api/admin/leads/${held}/audit-log`)).json() as {
      action: string;
      detail: { note?: string };
    }[];
    expect(audit.filter((e) => e.action === 'quality.verdict').map((e) => e.detail.note)).toEqual([
      null,
      'Called her',
    ]);

    // Rejecting keeps it from ever being sent.
    const rejectedAnswer = await bed.api('POST', `/api/admin/leads/${rejected}/verdict`, {
      verdict: 'reject',
    });
    expect(rejectedAnswer.json()).toMatchObject({ delivered: false, quality: { verdict: 'reject' } });
    expect(leadIds(endpoint.path)).not.toContain(rejected);

    await bed.api('DELETE', `/api/admin/webhooks/${endpoint.id}`);
  });

  it('sends no beneficiary update of a held lead (it was never sent)', async () => {
    const endpoint = await bed.createEndpoint({ events: ['lead.created', 'lead.beneficiary_updated'] });
    const res = await bed.submit(visitorLeadBody({ email: 'kim.tran@hotmial.com' }));
    const id = await submittedId(res);
    const owner = res.cookies.find((c) => c.name === 'lead_owner')?.value ?? '';
    const named = await bed.t.app.inject({
      method: 'PATCH',
      url: `/api/leads/${id}/beneficiary`,
      payload: { beneficiary: 'Child' },
      cookies: { lead_owner: owner },
    });
    expect(named.statusCode).toBe(200);
    // Queued with the update it would be in the outbox, or already fanned out into a delivery.
    const queued = await bed.t.app.db.pool.query(
      `select (select count(*) from webhook_event where $1 = any(ids))
         + (select count(*) from webhook_delivery where lead_id = $1) as n`,
      [id],
    );
    expect(Number(queued.rows[0].n)).toBe(0);
    await bed.api('DELETE', `/api/admin/webhooks/${endpoint.id}`);
  });

  it('releases and rejects in bulk from the review queue, and refuses a bad verdict', async () => {
    const held = await Promise.all(
      [1, 2, 3].map(async () => submittedId(await bed.submit({ ...visitorLeadBody(), automation: true }))),
    );
    const bulk = await bed.api('POST', '/api/admin/leads/verdicts', { ids: held, verdict: 'reject' });
    expect(bulk.json()).toEqual({ updated: 3, delivered: 0 });
    const bad = await bed.api('POST', `/api/admin/leads/${held[0]}/verdict`, { verdict: 'hold' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'validation_error' });
    const missing = await bed.api('POST', '/api/admin/leads/7b1c7d1e-4a1f-4b55-9a51-1c7f0f4b8d10/verdict', {
      verdict: 'accept',
    });
    expect(missing.statusCode).toBe(404);
  });
});

describe('the admin’s lists, exports and settings', () => {
  it('filters both lists and the CSV by verdict, with the verdict and reasons after the spec’s columns', async () => {
    const held = await submittedId(await bed.submit(visitorLeadBody({ email: 'lee.morgan@yaho.com' })));
    const list = await bed.api('GET', '/api/admin/leads?verdict=hold&pageSize=1000');
    expect(list.statusCode, list.body).toBe(200);
    const rows = list.json() as Detail[];
    expect(rows.every((r) => r.quality.verdict === 'hold')).toBe(true);
    expect(rows.some((r) => r.id === held)).toBe(true);
    const csv = await bed.api('GET', '/api/admin/export?verdict=hold');
    expect(csv.statusCode).toBe(200);
    const [header, ...lines] = csv.body.trim().split('\n');
    expect(header?.split(',').slice(-2)).toEqual(['verdict', 'reasons']);
    expect(lines.some((l) => l.startsWith(held) && l.endsWith(',hold,EMAIL_TYPO'))).toBe(true);
    const apiList = await bed.api('GET', '/api/admin/api-leads?verdict=reject');
    expect((apiList.json() as Detail[]).every((r) => r.quality.verdict === 'reject')).toBe(true);
    expect((await bed.api('GET', '/api/admin/leads?verdict=maybe')).statusCode).toBe(400);
  });

  it('reads and changes the settings: each change bumps the version, is audited and applies to the next lead', async () => {
    const before = (await bed.api('GET', '/api/admin/quality/settings')).json() as {
      version: number;
      actions: Record<string, string>;
      reasons: { code: string }[];
    };
    expect(before.actions.EMAIL_TYPO).toBe('hold');
    expect(before.reasons.map((r) => r.code)).toContain('BOT_NO_TOKEN');
    const next = {
      actions: { EMAIL_TYPO: 'accept' },
      duplicateWindowDays: 30,
      velocity: { per10Minutes: 3, perDay: 10 },
      minSecondsToSubmit: 3,
      allow: { emailDomains: ['ourcompany.com'], phones: [] },
    };
    const saved = await bed.api('PUT', '/api/admin/quality/settings', next);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      version: before.version + 1,
      updatedBy: 'alice',
      actions: { EMAIL_TYPO: 'accept', NAME_TEST: 'reject' },
    });
    const typo = await submittedId(await bed.submit(visitorLeadBody({ email: 'sam.ortiz@gmial.com' })));
    expect((await lead(typo)).quality).toMatchObject({
      verdict: 'accept',
      reasons: ['EMAIL_TYPO'],
      rulesVersion: before.version + 1,
    });
    const audit = (await bed.api('GET', '/api/admin/audit-log')).json() as { action: string }[];
    expect(audit.some((e) => e.action === 'quality.settings_changed')).toBe(true);

    for (const [bad, field] of [
      [{ ...next, actions: { NOT_A_CODE: 'hold' } }, 'actions.NOT_A_CODE'],
      [{ ...next, actions: { EMAIL_TYPO: 'maybe' } }, 'actions.EMAIL_TYPO'],
      [{ ...next, duplicateWindowDays: 0 }, 'duplicateWindowDays'],
      [{ ...next, velocity: { per10Minutes: -1, perDay: 10 } }, 'velocity.per10Minutes'],
      [{ ...next, allow: { emailDomains: ['not a domain'], phones: [] } }, 'allow.emailDomains.0'],
    ] as const) {
      const res = await bed.api('PUT', '/api/admin/quality/settings', bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect((res.json() as { fieldErrors: { field: string }[] }).fieldErrors.map((e) => e.field)).toContain(
        field,
      );
    }
    // Back to the defaults for the other tests.
    await bed.api('PUT', '/api/admin/quality/settings', {
      ...next,
      actions: {},
      allow: { emailDomains: [], phones: [] },
    });
  });

  it('never sends or accepts a lead with no quality work done: the old fixtures are held or rejected', async () => {
    const res = await post(leadBody(), { 'user-agent': BROWSER_UA });
    const { quality } = await lead(await submittedId(res));
    expect(quality.verdict).toBe('reject');
    expect(quality.reasons).toEqual(expect.arrayContaining(['BOT_NO_TOKEN', 'NAME_TEST', 'EMAIL_RESERVED']));
  });
});

describe('quality by traffic source', () => {
  it('counts each source’s leads by verdict with their top reasons, follows a release, and keeps "lead accepted" out of the funnel chain', async () => {
    const from = (source: string, body: Record<string, string>) => ({
      ...body,
      attribution: { utm_source: source, utm_medium: 'cpc', utm_campaign: 'q4' },
    });
    const good = await submittedId(await bed.submit(from('goodads', visitorLeadBody())));
    const typo = await submittedId(
      await bed.submit(from('goodads', visitorLeadBody({ email: 'ana.ruiz@gmial.com' }))),
    );
    for (let i = 0; i < 2; i++) {
      await submittedId(await post(from('botnet', visitorLeadBody()), { 'user-agent': 'curl/8.5.0' }));
    }
    await submittedId(await bed.submit(from('botnet', { ...visitorLeadBody(), automation: 'true' })));

    type Row = {
      source: string;
      campaign: string;
      leads: number;
      accepted: number;
      held: number;
      rejected: number;
      topReasons: { reason: string; leads: number }[];
    };
    const rowOf = async (source: string) => {
      const res = await bed.api('GET', `/api/admin/analytics?source=${source}`);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as { sources: Row[]; funnel: { step: string; count: number }[] };
      return { row: body.sources.find((r) => r.source === source), funnel: body.funnel };
    };
    const goodads = await rowOf('goodads');
    expect(goodads.row).toMatchObject({
      leads: 2,
      accepted: 1,
      held: 1,
      rejected: 0,
      topReasons: [{ reason: 'EMAIL_TYPO', leads: 1 }],
    });
    const botnet = await rowOf('botnet');
    expect(botnet.row).toMatchObject({ leads: 3, accepted: 0, held: 1, rejected: 2 });
    expect(botnet.row?.topReasons).toEqual([
      { reason: 'BOT_NO_TOKEN', leads: 2 },
      { reason: 'BOT_UA', leads: 2 },
      { reason: 'BOT_AUTOMATION', leads: 1 },
    ]);
    expect(goodads.funnel.map((f) => f.step)).toEqual([
      'page_view',
      'survey_started',
      'form_submitted',
      'lead_stored',
      'beneficiary_answered',
      'state_site_click',
    ]);

    // A release moves the lead from held to accepted, and the folded rollups say the same.
    await bed.api('POST', `/api/admin/leads/${typo}/verdict`, { verdict: 'accept' });
    expect((await rowOf('goodads')).row).toMatchObject({ leads: 2, accepted: 2, held: 0 });
    await bed.t.app.db.pool.query('select compact_lead_quality_rollups()');
    expect((await rowOf('goodads')).row).toMatchObject({
      leads: 2,
      accepted: 2,
      held: 0,
      topReasons: [{ reason: 'EMAIL_TYPO', leads: 1 }],
    });
    // A deleted lead leaves the counts.
    await bed.api('DELETE', `/api/admin/leads/${good}`);
    expect((await rowOf('goodads')).row).toMatchObject({ leads: 1, accepted: 1 });
  });
});
