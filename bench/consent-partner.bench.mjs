// Consent evidence and the partner API (issue 6), through HTTP against the built server on a fresh
// PostgreSQL database, next to a baseline started in the same run: a bare Fastify process that stores
// each lead with one INSERT (bench/support/insert-per-request.mjs). Both get 10 database connections.
//   POST /api/submit-search   lead + consent receipt in one transaction (advisory lock, suppression check)
//   POST /api/trpc/lead.submit   the same, as the landing form sends it (tRPC envelope, site Origin)
//   POST /api/partner/leads   without an Idempotency-Key, with a fresh key per request, and a replayed key
// Every request carries a new person (e-mail, phone, last name), so no duplicate rule is hit. Website leads
// come as visitors send them (issue 33): the page's form token, a browser, an address of their own behind
// the proxy, so every lead-quality check and look-up runs.
// Then, at 64 connections, POST /api/analytics/track against a bare Fastify route answering 204
// (bench/support/bare-fastify.mjs), so one run prints issue 23's four ratios (`npm run bench analytics`
// has the track route's full breakdown).
//
//   npm run bench consent-partner [-- --duration 10 --connections 32]   (DATABASE_URL: PostgreSQL admin URL)
import { execFile } from 'node:child_process';
import os from 'node:os';
import { promisify } from 'node:util';
import {
  apiLead,
  benchAdminUrl,
  formTokens,
  next,
  option,
  trackEvent,
  visitorLead,
} from './support/bodies.mjs';
import { cpuMeter } from './support/cpu.mjs';
import { postLoad } from './support/load.mjs';
import {
  pg,
  printedPort,
  printTable,
  readyAt,
  root,
  runSql,
  serverArgv,
  startProcess,
  stopProcess,
  withDatabase,
} from './support/processes.mjs';

const DURATION = Number(option('duration', '10'));
const CONNECTIONS = Number(option('connections', '32'));

const adminUrl = benchAdminUrl();
const dbName = `uf_bench_consent_${Date.now().toString(36)}`;
const dbUrl = withDatabase(adminUrl, dbName);

/** autocannon with a body (and headers) built per request. */
const load = (url, duration, build, connections) =>
  postLoad(url, { connections, duration, withHeaders: true }, build);
/** The track route's goal is stated at 64 connections (issue 5, issue 23). */
const TRACK_CONNECTIONS = 64;

/** One measured load (after a warm-up), with the CPU the server process and the database used for it. */
async function measure(label, url, build, serverPid, connections = CONNECTIONS) {
  await load(url, 2, build, connections); // warm-up: JIT, pools
  const cpu = cpuMeter({ serverPid, database: dbName });
  cpu.start();
  const r = await load(url, DURATION, build, connections);
  return {
    cpu: cpu.stop(r['2xx']),
    label,
    reqPerSec: Math.round(r['2xx'] / DURATION),
    p50: r.latency.p50,
    p99: r.latency.p99,
    ok: r['2xx'],
    failed: r.non2xx + r.errors + r.timeouts,
  };
}

async function main() {
  await runSql(adminUrl, `create database ${dbName}`);
  try {
    const { child: baseline, result: basePort } = await startProcess(
      'baseline',
      ['bench/support/insert-per-request.mjs', dbUrl],
      {},
      printedPort,
    );
    const base = await measure(
      'baseline: Fastify + 1 INSERT',
      `http://127.0.0.1:${basePort}/baseline`,
      () => ({
        body: apiLead(),
      }),
      baseline.pid,
    );
    await stopProcess(baseline);

    const port = 21_000 + Math.floor(Math.random() * 10_000);
    const { child: server } = await startProcess(
      'server',
      serverArgv(),
      {
        DATABASE_URL: dbUrl,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        // Half of DB_POOL_MAX is the raw pool these paths use: 10 connections, like the baseline's pool.
        DB_POOL_MAX: '20',
        PARTNER_RATE_LIMIT_PER_MINUTE: '100000',
        TRUST_PROXY: '127.0.0.1',
      },
      readyAt(port),
    );
    // One key per measured phase: at these rates one key would spend its per-minute limit (the most
    // PARTNER_RATE_LIMIT_PER_MINUTE allows is 100,000) and the later phases would measure 429s.
    const newKey = async () => {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['packages/server/dist/cli.js', 'api-key:create', `Bench Partner ${next()}`],
        { cwd: root, env: { ...process.env, DATABASE_URL: dbUrl, LOG_LEVEL: 'warn' } },
      );
      const key = /ufk_[A-Za-z0-9_-]+/.exec(stdout)?.[0];
      if (!key) throw new Error(`no key in: ${stdout}`);
      return { authorization: `Bearer ${key}` };
    };
    const app = `http://127.0.0.1:${port}`;

    let token = await formTokens(app);
    const submit = await measure(
      'POST /api/submit-search (lead + receipt)',
      `${app}/api/submit-search`,
      () => visitorLead(token()),
      server.pid,
    );
    token = await formTokens(app);
    // The landing form's own call, exactly as the page sends it: tRPC's httpLink posts the input as the
    // body, from the site's own Origin (issue 23: goal ≥ 0.8× submit-search, ≥ 0.5× one INSERT, p99 ≤ 50 ms).
    const form = await measure(
      'POST /api/trpc/lead.submit (the form)',
      `${app}/api/trpc/lead.submit`,
      () => {
        const lead = visitorLead(token());
        return { ...lead, headers: { ...lead.headers, origin: app, 'sec-fetch-site': 'same-origin' } };
      },
      server.pid,
    );
    const auth = await newKey();
    const partner = await measure(
      'POST /api/partner/leads',
      `${app}/api/partner/leads`,
      () => ({ body: apiLead(), headers: auth }),
      server.pid,
    );
    const keyedAuth = await newKey();
    const keyed = await measure(
      '… with a new Idempotency-Key each',
      `${app}/api/partner/leads`,
      () => ({ body: apiLead(), headers: { ...keyedAuth, 'idempotency-key': `k-${next()}` } }),
      server.pid,
    );
    const replayBody = apiLead();
    const replayAuth = await newKey();
    const replay = await measure(
      '… replaying one Idempotency-Key',
      `${app}/api/partner/leads`,
      () => ({ body: replayBody, headers: { ...replayAuth, 'idempotency-key': 'bench-replayed-key' } }),
      server.pid,
    );
    // Track: the bare route and the app's route in turn, each at 64 connections.
    const { child: bareChild, result: barePort } = await startProcess(
      'bare fastify',
      ['bench/support/bare-fastify.mjs'],
      {},
      printedPort,
    );
    const bare = await measure(
      `bare Fastify 204 (${TRACK_CONNECTIONS} connections)`,
      `http://127.0.0.1:${barePort}/api/analytics/track`,
      () => ({ body: trackEvent() }),
      bareChild.pid,
      TRACK_CONNECTIONS,
    );
    await stopProcess(bareChild);
    const track = await measure(
      `POST /api/analytics/track (${TRACK_CONNECTIONS} connections)`,
      `${app}/api/analytics/track`,
      () => ({ body: trackEvent() }),
      server.pid,
      TRACK_CONNECTIONS,
    );
    await stopProcess(server);

    const db = new pg.Client({ connectionString: dbUrl });
    await db.connect();
    const count = async (sql) => Number((await db.query(sql)).rows[0].n);
    const leads = await count('select count(*) as n from website_lead');
    const receipts = await count('select count(*) as n from consent_receipt');
    const compliant = await count("select count(*) as n from website_lead where tcpa_compliant = 'true'");
    const apiLeads = await count('select count(*) as n from api_lead');
    const verdicts = (
      await db.query(
        'select quality_verdict as v, count(*)::int as n from website_lead group by 1 order by 1',
      )
    ).rows
      .map((r) => `${r.v} ${r.n.toLocaleString('en-US')}`)
      .join(', ');
    const replayed = await count(
      `select count(*) as n from api_lead where last_name = '${replayBody.lastName.replace(/'/g, "''")}'`,
    );
    await db.end();

    const fmt = (n) => n.toLocaleString('en-US');
    const rows = [base, submit, form, partner, keyed, replay, bare, track];
    console.info(
      `\n${CONNECTIONS} connections, ${DURATION} s each after a 2 s warm-up (autocannon, same machine; ` +
        `load average now ${os.loadavg()[0].toFixed(1)}: other work on the machine moves the figures):`,
    );
    printTable(
      rows.map((r) => ({
        target: r.label,
        'req/s': fmt(r.reqPerSec),
        'vs baseline': (r.reqPerSec / (r === track || r === bare ? bare : base).reqPerSec).toFixed(2),
        'p50 ms': r.p50,
        'p99 ms': r.p99,
        '2xx': fmt(r.ok),
        'non-2xx/errors': r.failed,
        'CPU µs/req: server': r.cpu?.server ?? '–',
        database: r.cpu?.database ?? '–',
        'load gen.': r.cpu?.load ?? '–',
      })),
    );
    // Where the time goes: on a machine with few cores the server, PostgreSQL and the load generator share
    // them, so the CPU each spends per request bounds the rate as much as any wait does.
    if (submit.cpu?.database !== undefined && base.cpu?.database !== undefined) {
      const total = (r) => r.cpu.server + r.cpu.database + r.cpu.load;
      console.info(
        `CPU per request, submit-search against the one-INSERT baseline: server ${submit.cpu.server} µs vs ` +
          `${base.cpu.server} µs, database ${submit.cpu.database} µs vs ${base.cpu.database} µs, in all ` +
          `${total(submit)} µs vs ${total(base)} µs (${(total(submit) / total(base)).toFixed(2)}×) on ` +
          `${os.availableParallelism()} cores`,
      );
    }
    console.info(
      `website leads ${fmt(leads)} · receipts ${fmt(receipts)} (must be equal) · tcpaCompliant 'true' ${fmt(compliant)} · ` +
        `API leads ${fmt(apiLeads)} · leads from the replayed key ${replayed} (must be 1)`,
    );
    // Lead quality ran on every website lead; tokens beyond the fetched pool are reused (held, same work).
    console.info(`website lead verdicts: ${verdicts}`);
    console.info(
      `the form's tRPC call: ${(form.reqPerSec / submit.reqPerSec).toFixed(2)}× REST submit-search (goal ≥ 0.80), ` +
        `${(form.reqPerSec / base.reqPerSec).toFixed(2)}× one INSERT (goal ≥ 0.50), p99 ${form.p99} ms (goal ≤ 50 ms); ` +
        `submit-search ${(submit.reqPerSec / base.reqPerSec).toFixed(2)}× and partner leads ` +
        `${(partner.reqPerSec / base.reqPerSec).toFixed(2)}× one INSERT (goal ≥ 0.75); ` +
        `track ${(track.reqPerSec / bare.reqPerSec).toFixed(2)}× bare Fastify (goal ≥ 0.50), p99 ${track.p99} ms (goal ≤ 25 ms)`,
    );
    if (leads !== receipts || replayed !== 1 || rows.some((r) => r.failed > 0)) {
      console.error('consent-partner bench: an invariant failed (see above)');
      process.exitCode = 1;
    }
  } finally {
    await runSql(adminUrl, `drop database if exists ${dbName} with (force)`);
  }
}

await main();
