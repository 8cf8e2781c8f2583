// `npm run bench analytics`: visitor analytics figures for issue 5, all in one run on this machine.
//
//  1. POST /api/analytics/track at 64 connections (autocannon) against the built server on a fresh
//     PostgreSQL database, next to a bare Fastify route answering 204 started by this same script.
//     Goal: at least half the baseline's requests/s, p99 ≤ 25 ms. Beside them, in the same rounds, the
//     durable floor (support/bare-group-commit.mjs: the same Fastify doing only a group-committed INSERT,
//     no app code) — what the stack alone reaches on this machine — and the app's route for a crawler
//     (validated, not stored), so the printout shows where the route's time goes.
//  2. GET /api/admin/analytics p50 with 1,000,000 and then 10,000,000 seeded events (a year of
//     traffic, skewed over ~60 countries and ~300 referrers, four events per visit, with sources and
//     campaigns, device types, browsers and operating systems — issue 26) and 100,000 website leads (the
//     funnel and sources table, issue 15), a third of them sold (one sale in ten returned) and a year of
//     daily ad cost for the 30 paid campaigns (the money columns and the daily chart's money, issue 35).
//     Goal: ≤ 60 ms at 10M.
//
// Needs a PostgreSQL: BENCH_DATABASE_URL or DATABASE_URL (an admin URL; a scratch database is created
// and dropped). Options: --duration <s> (per run, default 10), --rounds <n> (alternating baseline/track
// runs, default 2), --skip-load, --skip-scale, --sizes 1000000,10000000, --leads 100000,
// --keep (leave the scratch database for EXPLAIN), --database <name> (use that database, kept from an
// earlier --keep run, instead of a scratch one: a size it already holds is measured without seeding
// again, so several builds can be measured on one seeded database; it is never dropped).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import os from 'node:os';
import autocannon from 'autocannon';
import { trackEvent } from './support/bodies.mjs';
import {
  pg,
  printedPort,
  printTable,
  readyAt,
  root,
  runSql,
  serverArgv,
  startProcess,
  stopAll,
  stopProcess,
  withDatabase,
} from './support/processes.mjs';

const args = process.argv.slice(2);
const flag = (name) => args.includes(`--${name}`);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
};
const DURATION = Number(option('duration', '10'));
const SIZES = option('sizes', '1000000,10000000').split(',').map(Number);
const CONNECTIONS = 64;
const ROUNDS = Number(option('rounds', '2'));
const ROLLUPS = [
  'analytics_daily_type',
  'analytics_daily_country',
  'analytics_daily_referrer',
  'analytics_daily_country_referrer',
  'analytics_monthly_country',
  'analytics_monthly_referrer',
  'analytics_monthly_country_referrer',
  // Issue 15: visits, visitors and the source rollups.
  'analytics_visit',
  'analytics_day_visitor',
  'analytics_daily_source',
  'analytics_monthly_source',
  // Issue 26: visits by device type, browser and operating system.
  'analytics_daily_device',
  'analytics_monthly_device',
];
/** Website leads seeded beside the events: the funnel and the sources table read them. */
const LEADS = Number(option('leads', '100000'));
const BROWSER_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const CRAWLER_UA = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const PIPELINE_ONLY = 'same route, crawler (not stored)';
const FLOOR = 'bare Fastify + group-commit INSERT';
const ADMIN = { username: 'bench-admin', password: 'bench-password-123' };

const adminUrl = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL;
if (!adminUrl) {
  console.error('analytics bench: set BENCH_DATABASE_URL or DATABASE_URL to a PostgreSQL admin URL.');
  process.exit(2);
}

async function startAppServer(databaseUrl, port) {
  const { child } = await startProcess(
    'server',
    serverArgv(),
    {
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
    },
    readyAt(port),
  );
  return child;
}

function load(url, duration, userAgent) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        method: 'POST',
        connections: CONNECTIONS,
        duration,
        headers: { 'content-type': 'application/json', 'user-agent': userAgent },
        // Each request its own event: four per visit, with the visit's campaign (bodies.mjs).
        requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify(trackEvent()) }) }],
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });
}

async function measureLoad(label, url, userAgent = BROWSER_UA) {
  await load(url, 3, userAgent); // warm-up: JIT, connection pools, prepared statements
  const r = await load(url, DURATION, userAgent);
  const ok = r['2xx'];
  return {
    label,
    reqPerSec: Math.round(ok / DURATION),
    p50: r.latency.p50,
    p99: r.latency.p99,
    ok,
    failed: r.non2xx + r.errors + r.timeouts,
  };
}

const fmt = (n) => n.toLocaleString('en-US');

async function loadBenchmark(databaseUrl) {
  const { child: bare, result: barePort } = await startProcess(
    'bare fastify',
    ['bench/support/bare-fastify.mjs'],
    {},
    printedPort,
  );
  // The durable floor: the same route doing only a group-committed INSERT (support/bare-group-commit.mjs).
  const { child: floor, result: floorPort } = await startProcess(
    'group-commit floor',
    ['bench/support/bare-group-commit.mjs'],
    { DATABASE_URL: databaseUrl },
    printedPort,
  );
  const port = 21_000 + Math.floor(Math.random() * 10_000);
  const server = await startAppServer(databaseUrl, port);
  const db = new pg.Client({ connectionString: databaseUrl });
  db.on('error', () => {}); // the scratch database is dropped with force at the end
  await db.connect();
  await db.query(`truncate analytics_event, ${ROLLUPS.join(', ')}`);

  // Alternating rounds, so a burst of other work on the machine does not fall on one target only.
  const rows = [];
  for (let round = 1; round <= ROUNDS; round++) {
    rows.push({
      round,
      ...(await measureLoad('bare Fastify 204', `http://127.0.0.1:${barePort}/api/analytics/track`)),
    });
    rows.push({
      round,
      ...(await measureLoad(FLOOR, `http://127.0.0.1:${floorPort}/api/analytics/track`)),
    });
    rows.push({
      round,
      ...(await measureLoad('POST /api/analytics/track', `http://127.0.0.1:${port}/api/analytics/track`)),
    });
    // The same route for a crawler: validated and answered, never stored. The gap to the row above is
    // what storing costs; the gap to the bare route is the app's request pipeline.
    rows.push({
      round,
      ...(await measureLoad(PIPELINE_ONLY, `http://127.0.0.1:${port}/api/analytics/track`, CRAWLER_UA)),
    });
  }
  await stopProcess(bare);
  await stopProcess(floor);
  await stopProcess(server);
  const stored = Number((await db.query('select count(*) from analytics_event')).rows[0].count);
  const counted = Number(
    (await db.query('select coalesce(sum(count), 0) as n from analytics_daily_type')).rows[0].n,
  );
  await db.end();

  console.info(
    `\nTrack ingestion, ${CONNECTIONS} connections, ${DURATION} s per run (autocannon, same machine):`,
  );
  printTable(
    rows.map((r) => ({
      round: r.round,
      target: r.label,
      'req/s': fmt(r.reqPerSec),
      'p50 ms': r.p50,
      'p99 ms': r.p99,
      '2xx': fmt(r.ok),
      'non-2xx/errors': r.failed,
    })),
  );
  const of = (label) => rows.filter((r) => r.label === label);
  const rate = (label) => of(label).reduce((sum, r) => sum + r.reqPerSec, 0) / ROUNDS;
  const baseline = rate('bare Fastify 204');
  const track = rate('POST /api/analytics/track');
  const worstP99 = Math.max(...of('POST /api/analytics/track').map((r) => r.p99));
  const pipeline = rate(PIPELINE_ONLY);
  const floorRate = rate(FLOOR);
  console.info(
    `mean track ${fmt(Math.round(track))} req/s vs baseline ${fmt(Math.round(baseline))} req/s: ratio ${(track / baseline).toFixed(2)} (goal ≥ 0.50) · ` +
      `track p99 (worst round) ${worstP99} ms (goal ≤ 25 ms) · events stored ${fmt(stored)} = rollup total ${fmt(counted)} ` +
      `(runs + warm-ups) · load average before: ${os.loadavg()[0].toFixed(2)}`,
  );
  console.info(
    `durable floor (bare Fastify + group-committed INSERT, no app): ${fmt(Math.round(floorRate))} req/s, ` +
      `ratio ${(floorRate / baseline).toFixed(2)} of the bare route — track is ${(track / floorRate).toFixed(2)}× the floor`,
  );
  console.info(
    `without storing (crawler): ${fmt(Math.round(pipeline))} req/s, ratio ${(pipeline / baseline).toFixed(2)} — ` +
      `storing costs ${Math.max(0, Math.round((1 - track / pipeline) * 100))} % of the route's rate`,
  );
}

const TYPES = `(array['page_view','page_view','page_view','page_view','page_view','page_view','form_submit','form_submit','survey_started','button_click'])`;
const COUNTRIES = `(array['US','CA','GB','DE','FR','IN','MX','AU','BR','NL','ES','IT','SE','PL','JP','KR','PH','NG','ZA','IE','NZ','SG','AR','CO','CL','PE','TR','IL','AE','SA','EG','KE','PK','BD','VN','TH','MY','ID','CN','TW','HK','RU','UA','RO','HU','CZ','AT','CH','BE','DK','NO','FI','PT','GR','BG','RS','HR','SK','LT','LV'])`;

// Issue 26: a visitor's device type, browser and operating system (as derived at ingest), skewed to phones.
const DEVICES = `(array['mobile','mobile','mobile','mobile','mobile','mobile','desktop','desktop','desktop','tablet'])`;
const BROWSERS = `(array['Chrome','Safari','Chrome','Samsung Internet','Firefox','Microsoft Edge','Safari','Opera'])`;
const OSES = `(array['Android','iOS','Windows','iOS','macOS','Android','Linux'])`;

/**
 * Adds `count` raw events over the last 365 days, in 1M-row statements: four events per browser session
 * (~3 sessions per visitor), each session on one day with one attribution — 40 % direct, 20 % organic
 * search, 20 % Google Ads over 20 campaigns, 10 % Facebook ads over 10 campaigns, 10 % ~300 referrers.
 */
async function seedEvents(db, from, count) {
  for (let done = 0; done < count; done += 1_000_000) {
    const n = Math.min(1_000_000, count - done);
    const start = from + done + 1;
    await db.query(
      `insert into analytics_event (created_at, event_type, page, referrer, referrer_host, referrer_url, session_id,
         country, visitor_id, channel, source, utm_source, utm_medium, utm_campaign, click_id_type,
         device_type, browser, os)
       select now() - ((x.s * 7919) % 31536000) * interval '1 second' + (g % 4) * interval '1 second',
              ${TYPES}[1 + floor(random() * 10)::int], 'home', a.ref, a.host, a.ref, md5(x.s::text),
              ${COUNTRIES}[1 + floor(power(((x.s * 2654435761) % 1000) / 1000.0, 2) * 60)::int],
              x.s / 3, a.channel, a.source, a.utm_source, a.utm_medium, a.campaign, a.click,
              ${DEVICES}[1 + (x.s % 10)::int], ${BROWSERS}[1 + ((x.s / 7) % 8)::int], ${OSES}[1 + ((x.s / 11) % 7)::int]
       from generate_series($1::bigint, $2::bigint) g,
       lateral (select g / 4 as s, ((g / 4) * 40503) % 100 as k) x,
       lateral (select
         case when x.k < 40 then 'Direct' when x.k < 60 then 'Organic Search' when x.k < 80 then 'Paid Search'
              when x.k < 90 then 'Paid Social' else 'Referral' end as channel,
         case when x.k < 40 then 'direct' when x.k < 60 then 'google.com' when x.k < 80 then 'google'
              when x.k < 90 then 'facebook' else 'site' || (x.s % 300) || '.example' end as source,
         case when x.k between 60 and 79 then 'google' when x.k between 80 and 89 then 'facebook' end as utm_source,
         case when x.k between 60 and 79 then 'cpc' when x.k between 80 and 89 then 'paid' end as utm_medium,
         case when x.k between 60 and 79 then 'search-' || (x.s % 20)
              when x.k between 80 and 89 then 'social-' || (x.s % 10) end as campaign,
         case when x.k between 60 and 79 then 'gclid' end as click,
         case when x.k < 40 or x.k between 60 and 89 then 'direct' when x.k < 60 then 'https://google.com/'
              else 'https://site' || (x.s % 300) || '.example/' end as ref,
         case when x.k < 40 or x.k between 60 and 89 then 'direct' when x.k < 60 then 'google.com'
              else 'site' || (x.s % 300) || '.example' end as host) a`,
      [start, start + n - 1],
    );
    process.stdout.write(`  seeded ${fmt(from + done + n)} events\r`);
  }
  process.stdout.write('\n');
}

/** `count` website leads over the last 365 days with the same attribution mix as the events. */
async function seedLeads(db, count) {
  await db.query(
    `insert into website_lead (first_name, last_name, email, phone, street_address, zip_code, state,
       birth_month, birth_day, birth_year, consent_given, opt_in_date, opt_in_time, tcpa_compliant,
       lead_source, ip_address, channel, source, medium, campaign, country, beneficiary, created_at, updated_at,
       session_id, visit_tracked)
     select 'First' || g, 'Last' || g, 'bench-lead' || g || '@example.com', '(555) 123-' || lpad((g % 10000)::text, 4, '0'),
       g || ' Main Street', '90210', 'CA', 1 + g % 12, 1 + g % 28, 1940 + g % 55, true, '2026-01-01', '12:00:00',
       case when g % 20 = 0 then 'false' else 'true' end, 'website', '198.51.100.1',
       case when k < 40 then 'Direct' when k < 60 then 'Organic Search' when k < 80 then 'Paid Search'
            when k < 90 then 'Paid Social' else 'Referral' end,
       case when k < 40 then 'direct' when k < 60 then 'google.com' when k < 80 then 'google'
            when k < 90 then 'facebook' else 'site' || (g % 300) || '.example' end,
       case when k between 60 and 79 then 'cpc' when k between 80 and 89 then 'paid' end,
       case when k between 60 and 79 then 'search-' || (g % 20) when k between 80 and 89 then 'social-' || (g % 10) end,
       'US', case when g % 3 = 0 then 'Estate' end,
       now() - ((g * 7919) % 31536000) * interval '1 second', now(), md5(g::text), g % 3 = 0
     from generate_series(1::bigint, $1::bigint) g, lateral (select (g * 40503) % 100 as k) x`,
    [count],
  );
}

/**
 * The money the sources table and the daily chart read (issue 35): every third lead sold at $5–$40, one
 * sale in ten returned, and a year of daily ad cost for the 20 Google and 10 Facebook campaigns.
 */
async function seedMoney(db) {
  await db.query(
    `insert into lead_sale (lead_id, lead_kind, status, price_cents, sold_at, country, channel, source, campaign,
       returned_at, created_at)
     select id, 'website', 'sold', (5 + (n % 36)) * 100, created_at, country, channel, source, coalesce(campaign, ''),
       case when n % 10 = 0 then created_at + interval '3 days' end, created_at
     from (select *, row_number() over (order by created_at) as n from website_lead) l where n % 3 = 0
     on conflict do nothing`,
  );
  await db.query(
    `insert into ad_cost (day, source, campaign, cost_cents, currency)
     select d::date, c.source, c.campaign, 1000 + (extract(doy from d)::int * 37 + c.i * 101) % 9000, 'USD'
     from generate_series(current_date - 365, current_date, interval '1 day') d,
       (select 'google' as source, 'search-' || i as campaign, i from generate_series(0, 19) i
        union all select 'facebook', 'social-' || i, i from generate_series(0, 9) i) c
     on conflict do nothing`,
  );
}

/** The landing experiment the scale part filters by (issue 48): a fixed id, so every size reads it. */
const EXPERIMENT_ID = '00000000-0000-4000-8000-000000000048';
const EXPERIMENT_VARIANT = 'experiment, arm b, last 30 days';

/**
 * A landing experiment over the last 30 days: every visitor-day of that range exposed, split 50/50
 * between arms `a` and `b` by the visitor id, and the leads of those days carrying the arm their id gives.
 */
async function seedExperiment(db) {
  await db.query(
    `insert into experiment (id, name, page, status, primary_metric, planned_visitors, arms, seed, started_at)
     values ($1, 'Bench headline', 'landing', 'stopped', 'revenue_per_visitor', 100000,
       '[{"key":"a","name":"A","weight":50,"content":{},"contentHash":"x"},
         {"key":"b","name":"B","weight":50,"content":{"headline":"B"},"contentHash":"y"}]', 'seed',
       now() - interval '30 days')
     on conflict (id) do nothing`,
    [EXPERIMENT_ID],
  );
  await db.query('delete from experiment_exposure where experiment_id = $1', [EXPERIMENT_ID]);
  await db.query(
    `insert into experiment_exposure (experiment_id, day, visitor_id, arm, first_at, last_at)
     select $1, day, visitor_id, case when visitor_id % 2 = 0 then 'a' else 'b' end, now(), now()
     from (select distinct day, visitor_id from analytics_visit
           where day >= current_date - 30 and visitor_id is not null) v`,
    [EXPERIMENT_ID],
  );
  await db.query(
    `update website_lead set experiment_id = $1,
       experiment_arm = case when (hashtext(id::text) & 1) = 0 then 'a' else 'b' end
     where created_at >= current_date - 30 and experiment_id is null`,
    [EXPERIMENT_ID],
  );
  await db.query('analyze experiment_exposure');
}

async function timeSummary(base, cookie, query, runs = 40) {
  const url = `${base}/api/admin/analytics${query ? `?${new URLSearchParams(query)}` : ''}`;
  const get = async () => {
    const started = performance.now();
    const res = await fetch(url, { headers: { cookie } });
    if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
    await res.json();
    return performance.now() - started;
  };
  for (let i = 0; i < 5; i++) await get();
  const times = [];
  for (let i = 0; i < runs; i++) times.push(await get());
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  return { p50: at(0.5), p95: at(0.95) };
}

async function scaleBenchmark(databaseUrl) {
  const db = new pg.Client({ connectionString: databaseUrl });
  db.on('error', () => {}); // the scratch database is dropped with force at the end
  await db.connect();
  const held = REUSE ? Number((await db.query('select count(*) from analytics_event')).rows[0].count) : 0;
  if (held === 0) {
    await db.query(`truncate analytics_event, ${ROLLUPS.join(', ')}`);
    await db.query('truncate website_lead cascade');
    await seedLeads(db, LEADS);
  }
  if (Number((await db.query('select count(*) from lead_sale')).rows[0].count) === 0) await seedMoney(db);
  const rows = [];
  let seeded = held;
  const recent = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
  const variants = [
    ['no filters (the dashboard default)', null],
    ['country=DE', { country: 'DE' }],
    ['eventType=form_submit', { eventType: 'form_submit' }],
    ['last 30 days', { startDate: recent }],
    ['campaign=search-3 (issue 15)', { campaign: 'search-3' }],
    ['channel=Paid Search, country=US', { channel: 'Paid Search', country: 'US' }],
    // Issue 48: one arm of a landing experiment over its 30 days (computed from the visits, not rollups).
    [EXPERIMENT_VARIANT, { experiment: EXPERIMENT_ID, arm: 'b', startDate: recent }],
  ];
  for (const size of SIZES) {
    if (size < seeded) throw new Error(`the database holds ${fmt(seeded)} events, more than ${fmt(size)}`);
    if (size === seeded) {
      console.info(`\n${fmt(size)} events already seeded in ${REUSE}: measuring without seeding`);
      await measureScale(databaseUrl, size, variants, rows);
      continue;
    }
    console.info(`\nSeeding ${fmt(size)} events...`);
    let t = performance.now();
    await seedEvents(db, seeded, size - seeded);
    seeded = size;
    const seedSeconds = (performance.now() - t) / 1000;
    t = performance.now();
    const rebuild = spawn(
      process.execPath,
      ['packages/server/dist/cli.js', 'analytics:rebuild-rollups', '--from', '2000-01-01'],
      {
        cwd: root,
        env: { ...process.env, DATABASE_URL: databaseUrl },
        stdio: 'inherit',
      },
    );
    const [code] = await once(rebuild, 'exit');
    if (code !== 0) throw new Error('rebuilding rollups failed');
    const rebuildSeconds = (performance.now() - t) / 1000;
    await seedExperiment(db);
    await db.query('vacuum analyze');
    const counts = [];
    for (const table of ['analytics_event', 'website_lead', 'lead_sale', 'ad_cost', ...ROLLUPS]) {
      counts.push(`${table}=${fmt(Number((await db.query(`select count(*) from ${table}`)).rows[0].count))}`);
    }
    console.info(
      `  seeded in ${seedSeconds.toFixed(1)} s, rollups rebuilt in ${rebuildSeconds.toFixed(1)} s; rows: ${counts.join(', ')}`,
    );
    await measureScale(databaseUrl, size, variants, rows);
  }
  await db.end();
  console.info(
    `\nGET /api/admin/analytics (sequential requests over HTTP, after 5 warm-up requests; load average ${loadAverage()}):`,
  );
  printTable(rows);
  const largest = rows.filter((r) => r.events === fmt(SIZES.at(-1)));
  const p50Of = (label) => Number(largest.find((r) => r.query === label)?.['p50 ms']);
  const worst = Math.max(
    ...largest.filter((r) => r.query !== EXPERIMENT_VARIANT).map((r) => Number(r['p50 ms'])),
  );
  console.info(
    `worst p50 at ${fmt(SIZES.at(-1))} events: ${worst.toFixed(1)} ms (goal ≤ 60 ms; baseline before issue 26's ` +
      'breakdowns, ADR 055: 14.0 ms p50 without filters at 10M)',
  );
  // Issue 48: an experiment's arm is read from the range's visits, not from rollups; its baseline is the
  // same 30 days read from the rollups, in this run.
  console.info(
    `experiment filter at ${fmt(SIZES.at(-1))} events: p50 ${p50Of(EXPERIMENT_VARIANT).toFixed(1)} ms, ` +
      `${(p50Of(EXPERIMENT_VARIANT) / p50Of('last 30 days')).toFixed(1)}× the same 30 days from the rollups ` +
      `(${p50Of('last 30 days').toFixed(1)} ms)`,
  );
  return rows;
}

const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

/** Times every variant against a server started on the database as it is. */
async function measureScale(databaseUrl, size, variants, rows) {
  const port = 21_000 + Math.floor(Math.random() * 10_000);
  const server = await startAppServer(databaseUrl, port);
  const base = `http://127.0.0.1:${port}`;
  const login = await fetch(`${base}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  if (login.status !== 200) throw new Error(`sign-in failed: ${login.status}`);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  for (const [label, query] of variants) {
    const { p50, p95 } = await timeSummary(base, cookie, query);
    rows.push({ events: fmt(size), query: label, 'p50 ms': p50.toFixed(1), 'p95 ms': p95.toFixed(1) });
  }
  await stopProcess(server);
}

const REUSE = option('database', '');
const dbName = REUSE || `uf_bench_${Date.now().toString(36)}`;
if (!REUSE) await runSql(adminUrl, `create database ${dbName}`);
const databaseUrl = withDatabase(adminUrl, dbName);
try {
  // Migrate once (the first server start does it) so both parts start from a ready schema.
  const migrated = await startAppServer(databaseUrl, 21_000 + Math.floor(Math.random() * 10_000));
  await stopProcess(migrated);
  if (!flag('skip-load')) {
    if (REUSE)
      throw new Error('--database keeps its seeded events: add --skip-load (the load part truncates)');
    await loadBenchmark(databaseUrl);
  }
  if (!flag('skip-scale')) await scaleBenchmark(databaseUrl);
} finally {
  stopAll();
  if (flag('keep') || REUSE) console.info(`kept the database for a closer look: ${databaseUrl}`);
  else await runSql(adminUrl, `drop database if exists ${dbName} with (force)`);
}
