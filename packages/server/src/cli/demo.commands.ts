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
        const app = await buildApp(
          { ...ctx.config, logLevel: 'silent', analyticsCountryHeader: 'x-demo-country' },
          { databaseUrl: url, emailScheduler: false },
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
            const submitted = await app.inject({
              method: 'POST',
              url: '/api/submit-search',
              ...visitor,
              payload: {
                firstName: pick(FIRST),
                lastName: pick(LAST),
                streetAddress: `${100 + i} Main St`,
                zipCode: pick(ZIPS),
                email: `demo.visitor.${i}@example.com`,
                phone: `(555) 3${String(i % 100).padStart(2, '0')}-${String(1000 + i).slice(-4)}`,
                birthMonth: String(1 + (i % 12)),
                birthDay: String(1 + (i % 28)),
                birthYear: String(1945 + (i % 50)),
                consentGiven: 'true',
                pageUrl: 'https://demo.example.com/',
                attribution,
                sessionId,
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
                phone: `(555) 4${String(i % 100).padStart(2, '0')}-${String(2000 + i).slice(-4)}`,
                birthMonth: 1 + (i % 12),
                birthDay: String(1 + (i % 28)),
                birthYear: 1950 + (i % 40),
              },
            });
            if (res.statusCode < 300) apiLeads += 1;
            else failures.push(`API lead: ${res.statusCode} ${res.body.slice(0, 200)}`);
          }
          // Spread the visits (and their events) over the last 30 days, then count them again.
          await app.db.pool.query(
            `update analytics_event set created_at = created_at - make_interval(days => (substr(session_id, 6)::int % $1))
             where session_id like 'demo-%'`,
            [DAYS],
          );
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
