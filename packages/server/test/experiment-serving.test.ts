import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAdmin, signIn } from './support/admin';
import { CONTROL_H1, h1Of, OWED_H1, startHeadlineExperiment, tokenOf } from './support/experiments';
import { visitorLeadBody } from './support/fixtures';
import { startTestApp, type TestApp } from './support/test-app';
import { BROWSER_UA, SECONDS_ON_PAGE, testClock, visitorAddress } from './support/visitor';

// Landing experiments served (issue 48, ADR 075): each visitor's arm is in the first HTML response and
// the same on reload; the form and its consent text are the same bytes in every arm; bots, HEAD requests,
// prefetches and previews are served but never counted; leads sent in each arm — by the app's call and
// by the browser's own post — carry their arm into the results; stopping with keep serves that arm to all.

const clock = testClock();
let t: TestApp;
let cookies: Record<string, string>;
const admin = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, cookies, ...(payload ? { payload } : {}) });

const ORIGIN = 'http://localhost:3000';

type Visitor = { ua: string; ip: string };
const visit = (v: Visitor, url = '/', method: 'GET' | 'HEAD' = 'GET', headers: Record<string, string> = {}) =>
  t.app.inject({
    method,
    url,
    headers: { host: 'localhost:3000', 'user-agent': v.ua, ...headers },
    remoteAddress: v.ip,
  });
const formOf = (html: string) => html.match(/<form[^>]*id="lead-form"[\s\S]*?<\/form>/)?.[0] ?? null;
const exposures = async (experimentId: string) =>
  Number(
    (
      await t.app.db.pool.query<{ n: string }>(
        'select count(*)::text as n from experiment_exposure where experiment_id = $1',
        [experimentId],
      )
    ).rows[0]?.n,
  );

let experimentId = '';
const visitors: (Visitor & { h1: string; html: string })[] = [];

beforeAll(async () => {
  t = await startTestApp({}, { clock: clock.now });
  await seedAdmin(t.app);
  cookies = await signIn(t.app);
  experimentId = await startHeadlineExperiment(t.app, cookies, {
    headline: OWED_H1,
    heroButton: 'Check What You Are Owed',
    formFirst: false,
  });
});
afterAll(async () => {
  await t?.close();
});

describe('a running landing experiment', () => {
  it('serves each visitor one arm in the first HTML response, the same on reload, and counts each once', async () => {
    for (let i = 0; i < 40; i++) {
      const v = { ua: `${BROWSER_UA} visitor/${i}`, ip: visitorAddress() };
      const first = await visit(v);
      expect(first.statusCode).toBe(200);
      expect(first.headers['cache-control']).toContain('private');
      const h1 = h1Of(first.body);
      expect([CONTROL_H1, OWED_H1]).toContain(h1);
      expect(first.body).toContain('<link rel="canonical" href="/" />');
      const again = await visit(v);
      expect(h1Of(again.body)).toBe(h1);
      visitors.push({ ...v, h1: h1 ?? '', html: first.body });
    }
    const owed = visitors.filter((v) => v.h1 === OWED_H1);
    const control = visitors.filter((v) => v.h1 === CONTROL_H1);
    // 40 visitors at 50/50: both arms are served (all in one arm has probability 2 × 2⁻⁴⁰).
    expect(owed.length).toBeGreaterThan(0);
    expect(control.length).toBeGreaterThan(0);
    // The arm's copy is in the page and in the config the app hydrates with; the control's is untouched.
    expect(owed[0]?.html).toContain('Check What You Are Owed');
    expect(owed[0]?.html).toContain('landingCopy');
    expect(control[0]?.html).not.toContain('Check What You Are Owed');
    // The form, its labels, the consent text and the legal links inside it: the same bytes in both arms.
    const forms = new Set(visitors.map((v) => formOf(v.html)));
    expect(forms.size).toBe(1);
    expect([...forms][0]).toContain('consent');
    // Each visitor counted once, however many page views.
    await expect.poll(() => exposures(experimentId), { timeout: 10_000 }).toBe(40);
  });

  it('serves bots, HEAD requests, prefetches and previews an arm without counting them', async () => {
    const before = await exposures(experimentId);
    const bot = await visit({
      ua: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      ip: visitorAddress(),
    });
    expect([CONTROL_H1, OWED_H1]).toContain(h1Of(bot.body));
    const head = await visit({ ua: `${BROWSER_UA} head`, ip: visitorAddress() }, '/', 'HEAD');
    expect(head.statusCode).toBe(200);
    await visit({ ua: `${BROWSER_UA} prefetch`, ip: visitorAddress() }, '/', 'GET', {
      'sec-purpose': 'prefetch',
    });
    const preview = await visit({ ua: `${BROWSER_UA} preview`, ip: visitorAddress() }, '/?arm=owed');
    expect(h1Of(preview.body)).toBe(OWED_H1);
    const previewControl = await visit(
      { ua: `${BROWSER_UA} preview2`, ip: visitorAddress() },
      '/?arm=control',
    );
    expect(h1Of(previewControl.body)).toBe(CONTROL_H1);
    // A counted visitor after them: once it is in, everything before it was written (one writer, in order).
    const marker = { ua: `${BROWSER_UA} marker`, ip: visitorAddress() };
    await visit(marker);
    await expect.poll(() => exposures(experimentId), { timeout: 10_000 }).toBe(before + 1);
  });

  it('carries each arm into its leads, sent by the app or by the browser itself, and into the results', async () => {
    const owed = visitors.find((v) => v.h1 === OWED_H1);
    const control = visitors.find((v) => v.h1 === CONTROL_H1);
    if (!owed || !control) throw new Error('both arms were served above');
    clock.advance(SECONDS_ON_PAGE);
    // The app's call: the page's form token goes with the lead.
    const byApp = await t.app.inject({
      method: 'POST',
      url: '/api/submit-search',
      headers: { 'user-agent': owed.ua },
      remoteAddress: owed.ip,
      payload: { ...visitorLeadBody(), formToken: tokenOf(owed.html) },
    });
    expect(byApp.statusCode, byApp.body).toBe(200);
    // The browser's own post (no JavaScript): the token is a field of the form.
    const byBrowser = await t.app.inject({
      method: 'POST',
      url: '/',
      headers: {
        host: 'localhost:3000',
        origin: ORIGIN,
        referer: `${ORIGIN}/`,
        'user-agent': control.ua,
        'content-type': 'application/x-www-form-urlencoded',
      },
      remoteAddress: control.ip,
      payload: new URLSearchParams({
        formStep: 'lead',
        ...visitorLeadBody(),
        formToken: tokenOf(control.html),
      }).toString(),
    });
    expect(byBrowser.statusCode, byBrowser.body.slice(0, 300)).toBe(200);
    // The answer page shows the visitor's arm again (the control here).
    expect(h1Of(byBrowser.body)).toBe(CONTROL_H1);

    const { rows } = await t.app.db.pool.query<{ arm: string; receipt_arm: string; hash: string }>(
      `select l.experiment_arm as arm, r.experiment_arm as receipt_arm, r.experiment_content_hash as hash
       from website_lead l join consent_receipt r on r.lead_id = l.id where l.experiment_id = $1
       order by l.created_at`,
      [experimentId],
    );
    const got = (await admin('GET', `/api/admin/experiments/${experimentId}`)).json() as {
      arms: { key: string; contentHash: string }[];
    };
    const hashOf = (key: string) => got.arms.find((a) => a.key === key)?.contentHash;
    expect(rows).toEqual([
      { arm: 'owed', receipt_arm: 'owed', hash: hashOf('owed') },
      { arm: 'control', receipt_arm: 'control', hash: hashOf('control') },
    ]);

    // The lead's page and the CSV export name the experiment and the arm.
    const leadId = (byApp.json() as { id: string }).id;
    expect((await admin('GET', `/api/admin/leads/${leadId}`)).json()).toMatchObject({
      experiment: 'Headline',
      arm: 'owed',
    });
    const csv = (await admin('GET', '/api/admin/export')).body;
    expect(csv.split('\n')[0]).toContain('experiment,arm');
    expect(csv).toContain('Headline,owed');

    const results = (await admin('GET', `/api/admin/experiments/${experimentId}/results`)).json();
    const byKey = Object.fromEntries(
      (results.arms as { key: string; visitors: number; leads: number }[]).map((a) => [a.key, a]),
    );
    expect(byKey.owed?.leads).toBe(1);
    expect(byKey.control?.leads).toBe(1);
    expect((byKey.owed?.visitors ?? 0) + (byKey.control?.visitors ?? 0)).toBe(await exposures(experimentId));
    expect(results).toMatchObject({ enoughData: false, verdict: null, multipleExposureRate: 0 });
    expect(results.srm.ok).toBe(true);
  });

  it('stopped with keep, serves the kept arm to everyone and counts nobody', async () => {
    const stop = await admin('POST', `/api/admin/experiments/${experimentId}/stop`, { keep: 'owed' });
    expect(stop.json()).toMatchObject({ status: 'stopped', rollout: 'owed' });
    const before = await exposures(experimentId);
    for (const v of visitors.slice(0, 10)) expect(h1Of((await visit(v)).body)).toBe(OWED_H1);
    // A lead from the rollout's page is nobody's arm.
    expect(tokenOf((await visit(visitors[0] as Visitor)).body).split('.')).toHaveLength(4);
    await admin('POST', `/api/admin/experiments/${experimentId}/stop`);
    for (const v of visitors.slice(0, 5)) expect(h1Of((await visit(v)).body)).toBe(CONTROL_H1);
    expect(await exposures(experimentId)).toBe(before);
  });
});
