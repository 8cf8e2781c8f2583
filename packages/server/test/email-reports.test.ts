import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { seedAdmin, signIn } from './support/admin';
import { insertApiLead, insertWebsiteLead } from './support/leads';
import { REFUSED, startSink } from './support/smtp-sink';
import { startTestApp, type TestApp } from './support/test-app';

// Issue 24 part 6 (ADR 063): e-mail reports and alerts against a local SMTP sink (smtp-server on
// 127.0.0.1). The scheduler does not run by itself here: each test passes the instant to runDue().

const header = (raw: string, name: string) =>
  new RegExp(`^${name}: (.*)$`, 'mi').exec(raw.split('\r\n\r\n')[0] ?? '')?.[1]?.trim();

let sink: Awaited<ReturnType<typeof startSink>>;
let t: TestApp;
/** A second app instance on the same database: two replicas running the scheduler. */
let replica: FastifyInstance;
const alice = { username: 'alice', password: 'alice-password-123' };
const bob = { username: 'bob', password: 'bob-password-1234' };
let aliceCookies: Record<string, string>;
let bobCookies: Record<string, string>;

beforeAll(async () => {
  sink = await startSink();
  t = await startTestApp(
    {
      SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
      MAIL_FROM: 'Lead reports <reports@example.com>',
      TIME_ZONE: 'America/New_York',
      ALERT_NO_LEADS_HOURS: '4',
    },
    { emailScheduler: false },
  );
  replica = await buildApp(t.config, { databaseUrl: t.db.url, emailScheduler: false });
  await replica.ready();
  await seedAdmin(t.app, alice);
  await seedAdmin(t.app, bob);
  aliceCookies = await signIn(t.app, alice);
  bobCookies = await signIn(t.app, bob);
});
afterAll(async () => {
  await replica?.close();
  await t?.close();
  await sink?.close();
});
beforeEach(() => {
  sink.inbox.length = 0;
});

const settings = (cookies: Record<string, string>, payload: object) =>
  t.app.inject({ method: 'PATCH', url: '/api/admin/me/email', cookies, payload });
const sendTest = (cookies: Record<string, string>) =>
  t.app.inject({ method: 'POST', url: '/api/admin/me/email/test', cookies });
const off = { dailySummary: false, weeklySummary: false, monthlySummary: false, alerts: false };

describe('the admin e-mail settings and the test e-mail', () => {
  it('validates the address and refuses an opt-in without one, naming the field', async () => {
    const bad = await settings(aliceCookies, { ...off, email: 'not-an-address' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toEqual([
      { field: 'email', message: expect.stringMatching(/valid e-mail/) },
    ]);
    const none = await settings(aliceCookies, { ...off, email: '', dailySummary: true });
    expect(none.statusCode).toBe(400);
    expect(none.json().fieldErrors[0].field).toBe('email');
  });

  it('without an address the test e-mail is 400 with a message', async () => {
    const res = await sendTest(aliceCookies);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/Add your e-mail address/);
    expect(sink.inbox).toEqual([]);
  });

  it('saves the address and opt-ins and sends the test e-mail with From, To and Subject', async () => {
    const saved = await settings(aliceCookies, { email: ' alice@example.com ', ...off, dailySummary: true });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({
      email: 'alice@example.com',
      ...off,
      dailySummary: true,
      configured: true,
    });
    const read = await t.app.inject({ url: '/api/admin/me/email', cookies: aliceCookies });
    expect(read.json()).toEqual(saved.json());

    const res = await sendTest(aliceCookies);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, to: 'alice@example.com' });
    expect(sink.inbox).toHaveLength(1);
    const [mail] = sink.inbox;
    expect(mail?.to).toEqual(['alice@example.com']);
    expect(mail?.from).toBe('reports@example.com');
    expect(header(mail?.raw ?? '', 'From')).toBe('Lead reports <reports@example.com>');
    expect(header(mail?.raw ?? '', 'To')).toBe('alice@example.com');
    expect(header(mail?.raw ?? '', 'Subject')).toBe('Test e-mail from the lead admin');
  });

  it('a refusal of the mail server is a clear 422, never a 500', async () => {
    await settings(bobCookies, { email: REFUSED, ...off });
    const res = await sendTest(bobCookies);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/mail server refused the message: 550/);
  });
});

describe('limits and the audit log', () => {
  it('five test e-mails per admin in 10 minutes, then 429 with Retry-After; each one and each change audited', async () => {
    await t.app.db.pool.query("delete from rate_limit_bucket where key like 'test-email:%'");
    for (let i = 0; i < 5; i++) expect((await sendTest(aliceCookies)).statusCode).toBe(200);
    const limited = await sendTest(aliceCookies);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(sink.inbox).toHaveLength(5);
    const { rows } = await t.app.db.pool.query<{ action: string; actor: string }>(
      `select action, actor from audit_log where action in ('admin.test_email_sent', 'admin.email_settings_changed')`,
    );
    expect(rows.filter((r) => r.action === 'admin.test_email_sent' && r.actor === 'alice').length).toBe(6);
    expect(rows.some((r) => r.action === 'admin.email_settings_changed' && r.actor === 'alice')).toBe(true);
  });
});

describe('summaries', () => {
  // Tuesday 2026-11-24 in New York (EST, UTC-5); the report runs Wednesday at 09:00 EST = 14:00 UTC.
  const onTuesday = (hour: number) => new Date(Date.UTC(2026, 10, 24, hour + 5, 30));
  const wednesday0900 = new Date('2026-11-25T14:00:00Z');

  it("the daily summary's figures for the day before, sent once by two replicas, only to those opted in", async () => {
    await settings(aliceCookies, { email: 'alice@example.com', ...off, dailySummary: true });
    await settings(bobCookies, { email: 'bob@example.com', ...off, weeklySummary: true, alerts: true });
    const pool = t.app.db.pool;
    const a = await insertWebsiteLead(pool, { createdAt: onTuesday(10), state: 'NY', consentGiven: true });
    await pool.query(`update website_lead set source = 'google' where id = $1`, [a.id]);
    const b = await insertWebsiteLead(pool, { createdAt: onTuesday(11), state: 'NY', consentGiven: true });
    await pool.query(`update website_lead set source = 'google' where id = $1`, [b.id]);
    await insertWebsiteLead(pool, { createdAt: onTuesday(12), state: 'CA', consentGiven: false });
    await insertApiLead(pool, { createdAt: onTuesday(13), state: 'TX' });
    // Outside the day: Monday 23:30 and Wednesday 00:30 in New York.
    await insertWebsiteLead(pool, { createdAt: onTuesday(-1) });
    await insertWebsiteLead(pool, { createdAt: onTuesday(24) });
    await pool.query(
      `insert into suppression (kind, value_hash, source, created_at) values ('email', 'h1', 'unsubscribe', $1)`,
      [onTuesday(14)],
    );

    // Before 09:00 nothing is due.
    expect(await t.app.emailReports.runDue(new Date('2026-11-25T13:59:00Z'))).toEqual([]);

    const [first, second] = await Promise.all([
      t.app.emailReports.runDue(wednesday0900),
      replica.emailReports.runDue(wednesday0900),
    ]);
    expect([...first, ...second].filter((s) => s.startsWith('daily'))).toEqual(['daily:2026-11-24']);
    const daily = sink.inbox.filter((m) => /Daily lead summary/.test(m.raw));
    expect(daily).toHaveLength(1);
    expect(daily[0]?.to).toEqual(['alice@example.com']);
    const raw = daily[0]?.raw ?? '';
    expect(header(raw, 'Subject')).toBe('Daily lead summary, 2026-11-24');
    expect(raw).toContain('Website leads: 3');
    expect(raw).toContain('API leads: 1');
    expect(raw).toContain('All leads: 4');
    expect(raw).toContain('Consent rate (website): 66.7 %');
    expect(raw).toMatch(/Top sources\r?\n {2}google: 2/);
    expect(raw).toMatch(/Top states\r?\n {2}NY: 2/);
    expect(raw).toContain('suppression list: 1');
    // An HTML part too.
    expect(raw).toMatch(/Content-Type: text\/html/i);

    // Later that day, on either replica: not again.
    expect(await t.app.emailReports.runDue(new Date('2026-11-25T20:00:00Z'))).not.toContain(
      'daily:2026-11-24',
    );
    expect(sink.inbox.filter((m) => /Daily lead summary/.test(m.raw))).toHaveLength(1);
  });

  it('the weekly summary goes out on Monday, to the admins who opted in to it', async () => {
    sink.inbox.length = 0;
    const sent = await t.app.emailReports.runDue(new Date('2026-11-30T14:05:00Z'));
    expect(sent).toEqual(expect.arrayContaining(['daily:2026-11-29', 'weekly:2026-11-23']));
    const weekly = sink.inbox.filter((m) => /Weekly lead summary/.test(m.raw));
    expect(weekly.map((m) => m.to)).toEqual([['bob@example.com']]);
    // Monday 23 to Sunday 29: the five website leads and the API lead seeded above.
    expect(weekly[0]?.raw).toContain('Website leads: 5');
    expect(weekly[0]?.raw).toContain('All leads: 6');
  });
});

describe('alerts', () => {
  beforeEach(async () => {
    await t.app.db.pool.query('delete from email_alert_sent');
    await settings(aliceCookies, { email: 'alice@example.com', ...off });
    await settings(bobCookies, { email: 'bob@example.com', ...off, alerts: true });
  });
  const alertsIn = () => sink.inbox.filter((m) => /Subject: Alert:/.test(m.raw));

  it('"no lead for N business hours": at most one per 12 hours, only to those opted in', async () => {
    const pool = t.app.db.pool;
    await pool.query('delete from website_lead');
    await pool.query('delete from api_lead');
    // Last lead Thursday 2026-12-03 10:00 EST; at 13:00 three business hours have passed.
    await insertWebsiteLead(pool, { createdAt: new Date('2026-12-03T15:00:00Z') });
    expect(await t.app.emailReports.runDue(new Date('2026-12-03T18:00:00Z'))).not.toContain('alert:no_leads');
    const at1400 = new Date('2026-12-03T19:00:00Z');
    const [one, two] = await Promise.all([
      t.app.emailReports.runDue(at1400),
      replica.emailReports.runDue(at1400),
    ]);
    expect([...one, ...two].filter((s) => s === 'alert:no_leads')).toHaveLength(1);
    expect(alertsIn()).toHaveLength(1);
    expect(alertsIn()[0]?.to).toEqual(['bob@example.com']);
    expect(header(alertsIn()[0]?.raw ?? '', 'Subject')).toBe('Alert: No lead for 4 business hours');
    // An hour later, still no lead: not again within 12 hours.
    await t.app.emailReports.runDue(new Date('2026-12-03T20:00:00Z'));
    expect(alertsIn()).toHaveLength(1);
    // Friday 10:00, 20 hours later: again.
    await t.app.emailReports.runDue(new Date('2026-12-04T15:00:00Z'));
    expect(alertsIn()).toHaveLength(2);
  });

  it('"webhook endpoint disabled" (what the webhook code calls): at most one per 12 hours', async () => {
    const now = new Date('2026-12-03T15:00:00Z');
    const results = await Promise.all([
      t.app.emailReports.alerts.endpointDisabled(
        { url: 'https://crm.example.com/hook?<x>', reason: '410 Gone' },
        now,
      ),
      replica.emailReports.alerts.endpointDisabled(
        { url: 'https://other.example.com/<x>', reason: 'failing for 5 days' },
        now,
      ),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(alertsIn()).toHaveLength(1);
    expect(header(alertsIn()[0]?.raw ?? '', 'Subject')).toBe('Alert: A webhook endpoint was disabled');
    expect(alertsIn()[0]?.raw).toContain('&lt;x&gt;');
    const later = new Date(now.getTime() + 11 * 3_600_000);
    expect(
      await t.app.emailReports.alerts.endpointDisabled({ url: 'https://a.example/', reason: 'x' }, later),
    ).toBe(false);
    const after12h = new Date(now.getTime() + 12 * 3_600_000);
    expect(
      await t.app.emailReports.alerts.endpointDisabled({ url: 'https://a.example/', reason: 'x' }, after12h),
    ).toBe(true);
    expect(alertsIn()).toHaveLength(2);
  });
});

describe('without SMTP_URL', () => {
  let plain: TestApp;
  beforeAll(async () => {
    plain = await startTestApp({}, { emailScheduler: false });
    await seedAdmin(plain.app, alice);
  });
  afterAll(async () => {
    await plain?.close();
  });

  it('says e-mail is not configured, and the test e-mail is 400 with a message; nothing is scheduled', async () => {
    const cookies = await signIn(plain.app, alice);
    const read = await plain.app.inject({ url: '/api/admin/me/email', cookies });
    expect(read.json()).toMatchObject({ configured: false, email: '' });
    await plain.app.inject({
      method: 'PATCH',
      url: '/api/admin/me/email',
      cookies,
      payload: { email: 'alice@example.com', dailySummary: true, weeklySummary: true, alerts: true },
    });
    const res = await plain.app.inject({ method: 'POST', url: '/api/admin/me/email/test', cookies });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/E-mail is not configured/);
    expect(await plain.app.emailReports.runDue(new Date('2026-11-25T14:00:00Z'))).toEqual([]);
  });
});
