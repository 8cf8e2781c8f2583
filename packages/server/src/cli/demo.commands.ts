import { addDays } from '../analytics/analytics-periods';
import { rebuildRollups } from '../analytics/analytics-report.service';
import { buildApp } from '../app';
import { createApiKey } from '../partners/partner-key.service';
import { type CliCommand, UsageError } from './command';

// `npm run demo` (issue 37): realistic demo data in an empty database, loaded through the app's own
// operations (the tracking route, the lead form's operation, the partner API), so every figure on the
// dashboards is one the app computed itself. The visits are then spread over the last 30 days and the
// rollups rebuilt from the raw events, as `analytics:rebuild-rollups` does.

const DAYS = 30;
const VISITORS = 240;
const UAS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
];
const CAMPAIGNS: Record<string, string>[] = [
  {},
  { utm_source: 'google', utm_medium: 'cpc', utm_campaign: 'spring-search', gclid: 'demoGclid' },
  { utm_source: 'facebook', utm_medium: 'paid_social', utm_campaign: 'retarget' },
  { utm_source: 'newsletter', utm_medium: 'email', utm_campaign: 'monthly' },
  { utm_source: 'bing', utm_medium: 'cpc' },
];
const REFERRERS = [
  'direct',
  'https://www.google.com/',
  'https://www.facebook.com/',
  'https://news.example.org/',
];
const COUNTRIES = ['US', 'US', 'US', 'US', 'CA', 'GB', 'MX'];
const FIRST = [
  'Mary',
  'James',
  'Linda',
  'Robert',
  'Patricia',
  'John',
  'Barbara',
  'Michael',
  'Susan',
  'David',
];
const LAST = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Moore',
  'Taylor',
];
const ZIPS = ['10001', '90210', '60601', '77001', '33101', '98101', '02108', '30301', '85001', '80202'];
const BENEFICIARIES = ['Child', 'Wife', 'Husband', 'Estate', 'Not specified'];
const MAIL_DOMAINS = ['gmail.com', 'yahoo.com', 'outlook.com', 'icloud.com', 'aol.com', 'comcast.net'];
const AREA_CODES = ['212', '312', '415', '617', '713', '305', '206', '404', '602', '303'];

/** A phone of the demo's own: real area codes, ordinary exchanges (no N11, no 555), one per `i` and kind. */
function demoPhone(i: number, kind: number): string {
  const exchange = 230 + kind * 100 + (i % 60);
  return `(${AREA_CODES[i % AREA_CODES.length]}) ${exchange}-${String(4100 + i * 7).slice(-4)}`;
}
const STATES = ['TX', 'FL', 'OH', 'GA', 'NC'];

/** A repeatable pseudo-random sequence: the same demo every time. */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

export const demoCommands: CliCommand[] = [
  {
    name: 'demo:load',
    description:
      'Load demo data into an EMPTY database: 30 days of visits, website leads and partner API leads.',
    async run(ctx) {
      const counts = await ctx.withDatabase(async ({ db, url }) => {
        const { rows } = await db.pool.query<{ n: number }>(
          `select (select count(*) from website_lead) + (select count(*) from api_lead)
             + (select count(*) from analytics_event) as n`,
        );
        if (Number(rows[0]?.n ?? 0) > 0) {
          throw new UsageError(
            'The database already holds leads or visits: demo data goes into an empty one only.',
          );
        }
        // The app's clock moves on as the demo visitors read the page (lead quality, issue 33: a lead sent
        // within 3 s of its page is held), so no one waits.
        let clockOffsetMs = 0;
        const app = await buildApp(
          { ...ctx.config, logLevel: 'silent', analyticsCountryHeader: 'x-demo-country' },
          { databaseUrl: url, emailScheduler: false, clock: () => new Date(Date.now() + clockOffsetMs) },
        );
        try {
          const next = random(37);
          const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)] as T;
          let leads = 0;
          const failures: string[] = [];
          const sessions: string[] = [];
          for (let i = 0; i < VISITORS; i++) {
            const sessionId = `demo-${i}`;
            sessions.push(sessionId);
            const visitor = {
              remoteAddress: `198.51.100.${(i % 250) + 1}`,
              headers: { 'user-agent': pick(UAS), 'x-demo-country': pick(COUNTRIES) },
            };
            const attribution = pick(CAMPAIGNS);
            const track = (eventType: string) =>
              app.inject({
                method: 'POST',
                url: '/api/analytics/track',
                ...visitor,
                payload: { eventType, page: 'home', referrer: pick(REFERRERS), sessionId, attribution },
              });
            await track('page_view');
            if (next() < 0.75) continue;
            await track('survey_started');
            await track('form_submit');
            // As a visitor sends it: the page's form token, a minute on the page, a person's details. A few
            // are what lead quality holds or rejects (a provider typo, a test name), for the review queue.
            const token = await app.inject({ method: 'GET', url: '/api/form-token' });
            clockOffsetMs += 60_000;
            const first = pick(FIRST);
            const last = pick(LAST);
            const mailbox = `${first}.${last}.${i}`.toLowerCase();
            const submitted = await app.inject({
              method: 'POST',
              url: '/api/submit-search',
              ...visitor,
              payload: {
                firstName: i % 23 === 5 ? 'Test' : first,
                lastName: i % 23 === 5 ? 'Test' : last,
                streetAddress: `${100 + i} Main St`,
                zipCode: pick(ZIPS),
                email: `${mailbox}@${i % 17 === 3 ? 'gmial.com' : pick(MAIL_DOMAINS)}`,
                phone: demoPhone(i, 3),
                birthMonth: String(1 + (i % 12)),
                birthDay: String(1 + (i % 28)),
                birthYear: String(1945 + (i % 50)),
                consentGiven: 'true',
                pageUrl: 'https://demo.example.com/',
                attribution,
                sessionId,
                formToken: (token.json() as { formToken: string }).formToken,
              },
            });
            if (submitted.statusCode !== 200) {
              failures.push(`lead: ${submitted.statusCode} ${submitted.body.slice(0, 200)}`);
              continue;
            }
            leads += 1;
            const owner = submitted.cookies.find((c) => c.name === 'lead_owner')?.value ?? '';
            await app.inject({
              method: 'PATCH',
              url: `/api/leads/${submitted.json().id}/beneficiary`,
              cookies: { lead_owner: owner },
              payload: { beneficiary: pick(BENEFICIARIES) },
            });
            if (next() < 0.6) await track('button_click');
          }
          const key = await createApiKey(app.db.orm.em.fork(), 'Demo Partner');
          let apiLeads = 0;
          for (let i = 0; i < 40; i++) {
            const res = await app.inject({
              method: 'POST',
              url: '/api/partner/leads',
              headers: { authorization: `Bearer ${key.secret}` },
              payload: {
                firstName: pick(FIRST),
                lastName: pick(LAST),
                streetAddress: `${200 + i} Oak Ave`,
                city: 'Springfield',
                state: pick(STATES),
                phone: demoPhone(i, 4),
                birthMonth: 1 + (i % 12),
                birthDay: String(1 + (i % 28)),
                birthYear: 1950 + (i % 40),
                // Consent evidence (a TrustedForm certificate), except for a few: those are never sold.
                ...(i % 8 === 7
                  ? {}
                  : {
                      trustedFormUrl: `https://cert.trustedform.com/demo${String(i).padStart(4, '0')}${'a'.repeat(24)}`,
                    }),
              },
            });
            if (res.statusCode < 300) apiLeads += 1;
            else failures.push(`API lead: ${res.statusCode} ${res.body.slice(0, 200)}`);
          }
          // Spread the visits (and their events) over the last 30 days, then count them again; each visit's
          // lead, with its consent receipt, goes back to its visit's day (the leads' triggers move their
          // counts), and the partner's leads over the same days. Days are the business clock's (ADR 060):
          // moved back by whole days of its wall clock, not by 24 hours, so a daylight-saving change between
          // two of them never puts two on one day.
          const daysBack = (at: string, days: string) =>
            `((${at} at time zone $2) - make_interval(days => ${days})) at time zone $2`;
          const client = await app.db.pool.connect();
          try {
            await client.query('begin');
            await client.query(
              `update analytics_event
               set created_at = ${daysBack('created_at', '(substr(session_id, 6)::int % $1)')}
               where session_id like 'demo-%'`,
              [DAYS, ctx.config.timeZone],
            );
            await client.query(
              `update website_lead l set created_at = m.at,
                 opt_in_date = to_char((m.at at time zone $2)::date, 'YYYY-MM-DD')
               from (select id, ${daysBack('created_at', '(substr(session_id, 6)::int % $1)')} as at
                     from website_lead where session_id like 'demo-%') m
               where l.id = m.id`,
              [DAYS, ctx.config.timeZone],
            );
            // A receipt is never changed (a trigger refuses it); demo data is the one exception, before
            // anyone has seen it.
            await client.query('alter table consent_receipt disable trigger consent_receipt_immutable');
            await client.query(
              `update consent_receipt r set created_at = l.created_at from website_lead l where l.id = r.lead_id`,
            );
            await client.query('alter table consent_receipt enable trigger consent_receipt_immutable');
            await client.query(
              `update api_lead set created_at = ${daysBack('created_at', '(row_n % $1)::int')}
               from (select id as key, row_number() over (order by created_at) as row_n from api_lead) n
               where api_lead.id = n.key`,
              [DAYS, ctx.config.timeZone],
            );
            await client.query('commit');
          } catch (err) {
            await client.query('rollback');
            throw err;
          } finally {
            client.release();
          }
          const today = new Date().toISOString().slice(0, 10);
          await app.db.pool.query('truncate analytics_visit, analytics_day_visitor');
          await rebuildRollups(app.db.pool, {
            timeZone: ctx.config.timeZone,
            retentionDays: ctx.config.analyticsRetentionDays,
            fromDay: addDays(today, -DAYS - 1),
          });
          // Every lead is made to pass: a refusal means the demo no longer fits the app's rules.
          if (failures.length) throw new Error(`demo data refused:\n${failures.slice(0, 3).join('\n')}`);
          return { visits: sessions.length, leads, apiLeads };
        } finally {
          await app.close();
        }
      });
      ctx.out(
        `Loaded ${counts.visits} visits over ${DAYS} days, ${counts.leads} website leads and ${counts.apiLeads} API leads (partner 'Demo Partner').`,
      );
      ctx.out('Start the server (npm start) and sign in at /admin/login to see them.');
    },
  },
];
