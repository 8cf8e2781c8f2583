import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { LANDING_STEP_META, type LandingStep } from '@uf/shared/landing-step';
import { LEAD_FORM_NOTICES, PUBLIC_TOASTS } from '@uf/shared/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leadBody, visitorLeadBody } from './support/fixtures';
import { startTestApp, type TestApp } from './support/test-app';
import { BROWSER_UA } from './support/visitor';

// POST / — the landing form as the browser posts it when the app's script did not run (ADR 057).

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const ORIGIN = 'http://localhost:3000';

function post(fields: Record<string, string>, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/',
    headers: {
      host: 'localhost:3000',
      origin: ORIGIN,
      'content-type': 'application/x-www-form-urlencoded',
      referer: `${ORIGIN}/?utm_source=newsletter&utm_campaign=spring&gclid=abc123`,
      ...headers,
    },
    payload: new URLSearchParams(fields).toString(),
  });
}

/** The lead form's fields as a browser sends them: consent `true` only when ticked. */
function leadFields(overrides: Record<string, string> = {}): Record<string, string> {
  const { consentGiven, ...rest } = leadBody();
  return {
    formStep: 'lead',
    ...rest,
    ...(consentGiven === 'true' ? { consentGiven: 'true' } : {}),
    ...overrides,
  };
}

/** A real visitor's fields as the browser posts them. */
function visitorFields(): Record<string, string> {
  return { formStep: 'lead', ...visitorLeadBody() };
}

/** The step the page was rendered in (the meta tag the app reads). */
function stepOf(html: string): LandingStep {
  const match = html.match(new RegExp(`<meta name="${LANDING_STEP_META}" content="([^"]*)"`));
  if (!match?.[1]) throw new Error('the page names no landing step');
  const json = match[1]
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
  return JSON.parse(json) as LandingStep;
}

const ownerCookie = (res: { cookies: { name: string; value: string }[] }) =>
  res.cookies.find((c) => c.name === 'lead_owner')?.value ?? '';

describe('POST / (the landing form without the app)', () => {
  it('stores the lead with its consent receipt and attribution, and answers with the beneficiary step', async () => {
    const fields = leadFields({ zipCode: '10001' });
    const res = await post(fields, { 'user-agent': 'no-script browser' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['cache-control']).toBe('no-store');
    const step = stepOf(res.body);
    expect(step).toMatchObject({ step: 'beneficiary', state: 'NY' });
    expect(res.body).toContain('Who is your beneficiary?');
    for (const option of ['Child', 'Husband', 'Wife', 'Aunt', 'Uncle', 'Cousin', 'Estate']) {
      expect(res.body).toContain(`value="${option}"`);
    }
    const id = step.step === 'beneficiary' ? step.leadId : '';
    const lead = await t.app.db.pool.query(
      `select l.email, l.consent_given, l.state, l.attribution->>'utm_source' as utm_source,
              l.attribution->>'utm_campaign' as utm_campaign,
              (select count(*)::int from consent_receipt r where r.lead_id = l.id) as receipts
         from website_lead l where l.id = $1`,
      [id],
    );
    expect(lead.rows[0]).toMatchObject({
      email: fields.email,
      consent_given: true,
      state: 'NY',
      utm_source: 'newsletter',
      utm_campaign: 'spring',
      receipts: 1,
    });
    expect(ownerCookie(res)).not.toBe('');
  });

  it('sets the beneficiary for the posting browser and answers with the Congratulations screen', async () => {
    const submitted = await post(leadFields({ zipCode: '90210' }));
    const step = stepOf(submitted.body);
    const id = step.step === 'beneficiary' ? step.leadId : '';
    const chosen = await post(
      { formStep: 'beneficiary', leadId: id, beneficiary: 'Wife' },
      { cookie: `lead_owner=${ownerCookie(submitted)}` },
    );
    expect(chosen.statusCode).toBe(200);
    expect(stepOf(chosen.body)).toEqual({ step: 'done', leadId: id, state: 'CA' });
    expect(chosen.body).toContain('Congratulations!');
    // The claim is a link to the state's official site in a new tab; "Search for More People" goes home.
    expect(chosen.body).toMatch(
      /<a[^>]*href="https:\/\/[^"]+"[^>]*target="_blank"[^>]*>[\s\S]*?Search &amp; Claim Your Assets/,
    );
    expect(chosen.body).toMatch(/<a[^>]*href="\/"[^>]*>[\s\S]*?Search for More People/);
    const row = await t.app.db.pool.query('select beneficiary from website_lead where id = $1', [id]);
    expect(row.rows[0].beneficiary).toBe('Wife');
  });

  it("Skip stores 'Not specified'; another browser (no owner cookie) cannot set it", async () => {
    const submitted = await post(leadFields());
    const step = stepOf(submitted.body);
    const id = step.step === 'beneficiary' ? step.leadId : '';
    const stranger = await post({ formStep: 'beneficiary', leadId: id, beneficiary: 'Child' });
    expect(stranger.statusCode).toBe(404);
    expect(stepOf(stranger.body)).toMatchObject({
      step: 'beneficiary',
      alert: PUBLIC_TOASTS.beneficiaryFailed,
    });
    const skipped = await post(
      { formStep: 'beneficiary', leadId: id, skip: '1' },
      { cookie: `lead_owner=${ownerCookie(submitted)}` },
    );
    expect(stepOf(skipped.body)).toMatchObject({ step: 'done' });
    const row = await t.app.db.pool.query('select beneficiary from website_lead where id = $1', [id]);
    expect(row.rows[0].beneficiary).toBe('Not specified');
  });

  it('answers invalid input with the spec messages under each field and the values kept, consent unticked', async () => {
    const res = await post(
      leadFields({ firstName: '', zipCode: '1234', email: 'not-an-email', phone: '12', consentGiven: '' }),
    );
    expect(res.statusCode).toBe(400);
    const step = stepOf(res.body);
    expect(step.step).toBe('form');
    if (step.step !== 'form') return;
    expect(step.errors).toMatchObject({
      firstName: 'First name is required',
      zipCode: 'ZIP code must be at least 5 digits',
      email: expect.stringMatching(/^Please enter a valid email address \(e\.g\., /),
      phone: 'Please enter a valid phone number (e.g., (555) 123-4567)',
      consentGiven: 'You must consent to continue',
    });
    expect(step.values).toMatchObject({ zipCode: '1234', email: 'not-an-email', lastName: 'Doe' });
    // In the page itself: the messages under the fields, the values in them, the box unticked.
    expect(res.body).toContain('First name is required');
    expect(res.body).toContain('value="not-an-email"');
    expect(res.body).not.toMatch(/name="consentGiven"[^>]*checked/);
    const count = await t.app.db.pool.query('select count(*)::int as n from website_lead where email = $1', [
      'not-an-email',
    ]);
    expect(count.rows[0].n).toBe(0);
  });

  it('says beside the unticked box that a ticked consent must be given again (issue 37)', async () => {
    const res = await post(leadFields({ zipCode: '1234' }));
    expect(res.statusCode).toBe(400);
    const step = stepOf(res.body);
    if (step.step !== 'form') throw new Error(`expected the form, got ${step.step}`);
    expect(step.errors).toEqual({
      zipCode: 'ZIP code must be at least 5 digits',
      consentGiven: LEAD_FORM_NOTICES.consentAgain,
    });
    expect(res.body).toContain(LEAD_FORM_NOTICES.consentAgain);
    expect(res.body).not.toMatch(/name="consentGiven"[^>]*checked/);
  });

  it('says beside the e-mail field what to do about a duplicate e-mail (issue 37)', async () => {
    const fields = leadFields();
    expect((await post(fields)).statusCode).toBe(200);
    const again = await post(fields);
    const step = stepOf(again.body);
    if (step.step !== 'form') throw new Error(`expected the form, got ${step.step}`);
    expect(step.errors.email).toBe(LEAD_FORM_NOTICES.duplicateEmail);
    expect(again.body).toContain(LEAD_FORM_NOTICES.duplicateEmail);
  });

  it('shows the spec messages for a duplicate e-mail and an age outside 1940–1994', async () => {
    const fields = leadFields();
    expect((await post(fields)).statusCode).toBe(200);
    const again = await post(fields);
    expect(again.statusCode).toBe(409);
    expect(stepOf(again.body)).toMatchObject({ step: 'form', alert: PUBLIC_TOASTS.duplicateEmail });
    expect(again.body).toContain(PUBLIC_TOASTS.duplicateEmail.message);
    const young = await post(leadFields({ birthYear: '2001' }));
    expect(young.statusCode).toBe(400);
    expect(stepOf(young.body)).toMatchObject({ step: 'form', alert: PUBLIC_TOASTS.ageRestriction });
    expect(young.body).toContain('Sorry, we only serve individuals born between 1940 and 1994');
  });

  it('refuses a post from another site, and never answers GET with personal data in the URL', async () => {
    const res = await post(leadFields(), { origin: 'https://evil.example' });
    expect(res.statusCode).toBe(403);
    const fetched = await post(leadFields(), { origin: 'null' });
    expect(fetched.statusCode).toBe(403);
    const viaFetchMetadata = await post(leadFields(), { origin: '', 'sec-fetch-site': 'cross-site' });
    expect(viaFetchMetadata.statusCode).toBe(403);
    // The prerendered form posts (never GET) to this path.
    const page = await t.app.inject({ method: 'GET', url: '/' });
    const form = page.body.match(/<form[^>]*aria-label="Unclaimed money search"[^>]*>/)?.[0] ?? '';
    expect(form).toContain('method="post"');
    expect(form).toContain('action="/#search"');
  });
});

describe('POST / keeps the campaign across a refused post', () => {
  it('stores the first post’s campaign when the corrected form is sent from the answer page', async () => {
    const fields = leadFields({ firstName: '' });
    const refused = await post(fields);
    const step = stepOf(refused.body);
    expect(step).toMatchObject({ step: 'form', attribution: { utm_source: 'newsletter', gclid: 'abc123' } });
    expect(refused.body).toContain('name="attribution"');
    // The corrected form is posted from the answer page, whose address is plain "/".
    const attribution = step.step === 'form' ? JSON.stringify(step.attribution) : '';
    const ok = await post({ ...fields, firstName: 'Jane', attribution }, { referer: `${ORIGIN}/` });
    const done = stepOf(ok.body);
    const id = done.step === 'beneficiary' ? done.leadId : '';
    const row = await t.app.db.pool.query(
      "select attribution->>'utm_source' as source from website_lead where id = $1",
      [id],
    );
    expect(row.rows[0].source).toBe('newsletter');
  });
});

describe('lead quality without the app (issue 33)', () => {
  const tokenIn = (html: string) =>
    html.match(/<input type="hidden" name="formToken" form="lead-form" value="([^"]+)">/)?.[1];

  it('serves every page with a form token of its own that belongs to the lead form, compressed or not', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/' });
    const again = await t.app.inject({ method: 'GET', url: '/' });
    expect(plain.headers['cache-control']).toBe('no-cache, private');
    const [first, second] = [tokenIn(plain.body), tokenIn(again.body)];
    expect(first).toMatch(/^v1\./);
    expect(second).not.toBe(first);
    expect(plain.body).toMatch(/<form[^>]*id="lead-form"/);
    expect(plain.body).toContain('name="referenceCode"');
    expect(plain.body.trimEnd().endsWith('</html>')).toBe(true);
    for (const encoding of ['br', 'gzip']) {
      const res = await t.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': encoding } });
      expect(res.headers['content-encoding']).toBe(encoding);
      const html = (encoding === 'br' ? brotliDecompressSync : gunzipSync)(res.rawPayload).toString('utf8');
      expect(tokenIn(html)).toMatch(/^v1\./);
      expect(html.replace(/value="v1\.[^"]+"/, '')).toBe(plain.body.replace(/value="v1\.[^"]+"/, ''));
    }
    const legal = await t.app.inject({ method: 'GET', url: '/privacy' });
    expect(tokenIn(legal.body)).toMatch(/^v1\./);
  });

  it('offers "Did you mean …?" under the e-mail field of the form shown again', async () => {
    const refused = await post(leadFields({ firstName: '', email: 'pat.kim@gmial.com' }));
    const step = stepOf(refused.body);
    expect(step).toMatchObject({ step: 'form', emailSuggestion: 'pat.kim@gmail.com' });
    expect(refused.body).toMatch(/Did you mean[\s\S]{0,400}pat\.kim@gmail\.com/);
  });

  it('judges the posted form by its token, keeps the token through a refused post, and flags the honeypot', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/' });
    const token = tokenIn(page.body) ?? '';
    // A refused post shows the form again with the same token: the time on the page counts from the first.
    const refused = await post(
      { ...leadFields({ firstName: '' }), formToken: token },
      { 'user-agent': BROWSER_UA },
    );
    expect(tokenIn(refused.body)).toBe(token);
    const ok = await post(
      { ...visitorFields(), formToken: token, referenceCode: 'filled by a bot' },
      { 'user-agent': BROWSER_UA },
    );
    const step = stepOf(ok.body);
    expect(step.step).toBe('beneficiary');
    const id = step.step === 'beneficiary' ? step.leadId : '';
    const row = await t.app.db.pool.query<{
      quality_reasons: string[];
      quality_signals: { token: string; secondsToSubmit: number; honeypot: boolean };
    }>('select quality_reasons, quality_signals from website_lead where id = $1', [id]);
    // The token came with the form (no BOT_NO_TOKEN), and the filled honeypot is seen.
    expect(row.rows[0]?.quality_reasons).toContain('BOT_HONEYPOT');
    expect(row.rows[0]?.quality_reasons).not.toContain('BOT_NO_TOKEN');
    expect(row.rows[0]?.quality_signals).toMatchObject({ token: 'ok', honeypot: true });
    expect(row.rows[0]?.quality_signals.secondsToSubmit).toBeGreaterThanOrEqual(0);
  });
});
