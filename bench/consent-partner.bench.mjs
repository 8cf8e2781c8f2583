// Consent evidence and the partner API (issue 6), through HTTP against the built server on a fresh
// PostgreSQL database, next to a baseline started in the same run: a bare Fastify process that stores
// each lead with one INSERT (bench/support/insert-per-request.mjs). Both get 10 database connections.
//   POST /api/submit-search   lead + consent receipt in one transaction (advisory lock, suppression check)
//   POST /api/trpc/lead.submit   the same, as the landing form sends it (tRPC envelope, site Origin)
//   POST /api/partner/leads   without an Idempotency-Key, with a fresh key per request, and a replayed key
// Every request carries a new person (e-mail, phone, last name), so no duplicate rule is hit. Website leads
// come as visitors send them (issue 33): the page's form token, a browser, an address of their own behind
// the proxy, so every lead-quality check and look-up runs. The baseline, submit-search and the form's call
// run in turn, several rounds after a warm-up of each (ADR 051), so the machine's changing load hits them alike.
// Then, at 64 connections, POST /api/analytics/track against a bare Fastify route answering 204
// (bench/support/bare-fastify.mjs), so one run prints issue 23's four ratios (`npm run bench analytics`
// has the track route's full breakdown).
//
//   npm run bench consent-partner [-- --duration 10 --connections 32 --rounds 3 --warm-up 5 --only website]   (DATABASE_URL: PostgreSQL admin URL)
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
import { inTurn, measureLoad, median, perRound } from './support/rounds.mjs';

const DURATION = Number(option('duration', '10'));
/** Rounds of baseline, submit-search and the form's call, in turn (the median round is reported). */
const ROUNDS = Number(option('rounds', '3'));
/** Seconds of load on each of the app's lead routes before the first round. */
const WARM_UP = Number(option('warm-up', '5'));
/** --only website: the rounds of baseline, submit-search and the form's call alone (quicker, while tuning). */
const ONLY = option('only', 'all');
const CONNECTIONS = Number(option('connections', '32'));

const adminUrl = benchAdminUrl();
const dbName = `uf_bench_consent_${Date.now().toString(36)}`;
const dbUrl = withDatabase(adminUrl, dbName);

/** autocannon with a body (and headers) built per request. */
const load = (url, duration, build, connections) =>
  postLoad(url, { connections, duration, withHeaders: true }, build);
/** The track route's goal is stated at 64 connections (issue 5, issue 23). */
const TRACK_CONNECTIONS = 64;

/** One measured load after a 2 s warm-up of the same route (JIT, pools), with its CPU per request. */
async function measure(label, url, build, serverPid, connections = CONNECTIONS) {
  await load(url, 2, build, connections);
  const result = await measureLoad({ url, pid: serverPid }, build, {
    duration: DURATION,
    connections,
    database: dbName,
  });
  return { ...result, label };
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
    const baselineUrl = `http://127.0.0.1:${basePort}/baseline`;
    const baselineBody = () => ({ body: apiLead() });

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

    // The one-INSERT baseline, REST submit-search and the form's call in turn, ROUNDS times after a warm-up
    // of each (bench/support/rounds.mjs): each ratio is taken within a round, and the median is reported.
    // The landing form's own call is sent exactly as the page sends it: tRPC's httpLink posts the input as
    // the body, from the site's own Origin (issue 23: goal ≥ 0.8× submit-search, ≥ 0.5× one INSERT, p99 ≤ 50 ms).
    const visitors = async () => {
      const token = await formTokens(app);
      return () => visitorLead(token());
    };
    const formVisitors = async () => {
      const visitor = await visitors();
      return () => {
        const lead = visitor();
        return { ...lead, headers: { ...lead.headers, origin: app, 'sec-fetch-site': 'same-origin' } };
      };
    };
    const website = await inTurn(
      [
        {
          key: 'base',
          label: 'baseline: Fastify + 1 INSERT',
          url: baselineUrl,
          pid: baseline.pid,
          bodies: async () => baselineBody,
        },
        {
          key: 'submit',
          label: 'POST /api/submit-search (lead + receipt)',
          url: `${app}/api/submit-search`,
          pid: server.pid,
          bodies: visitors,
        },
        {
          key: 'form',
          label: 'POST /api/trpc/lead.submit (the form)',
          url: `${app}/api/trpc/lead.submit`,
          pid: server.pid,
          bodies: formVisitors,
        },
      ],
      { rounds: ROUNDS, duration: DURATION, warmUp: WARM_UP, connections: CONNECTIONS, database: dbName },
    );
    await stopProcess(baseline);
    const { base, submit, form } = website;
    const formToSubmit = median(form.rates.map((rate, i) => rate / (submit.rates[i] || 1)));
    if (ONLY === 'website') {
      await stopProcess(server);
      console.info(
        `\nsubmit-search ${submit.ratio.toFixed(2)}× one INSERT (rounds ${perRound(submit)}; p99 ${submit.p99} ms, ` +
          `CPU µs/req server ${submit.cpu?.server} database ${submit.cpu?.database}), the form ${form.ratio.toFixed(2)}× ` +
          `(rounds ${perRound(form)}; p99 ${form.p99} ms); baseline ${base.rates.join(' / ')} req/s ` +
          `(CPU µs/req server ${base.cpu?.server} database ${base.cpu?.database})`,
      );
      return;
    }
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
    const ratioOf = (r) => {
      if (r.ratios) return r.ratio;
      return r.reqPerSec / (r === track || r === bare ? bare : base).reqPerSec;
    };
    console.info(
      `\n${CONNECTIONS} connections, ${DURATION} s each (autocannon, same machine; load average now ` +
        `${os.loadavg()[0].toFixed(1)}: other work on the machine moves the figures). The baseline, submit-search ` +
        `and the form's call ran in turn, ${ROUNDS} rounds after a warm-up of each: their rows are the median ` +
        `round, their ratios the median of each round's own; the other rows ran once after a 2 s warm-up:`,
    );
    printTable(
      rows.map((r) => ({
        target: r.label,
        'req/s': fmt(r.reqPerSec),
        'vs baseline': ratioOf(r).toFixed(2),
        'p50 ms': r.p50,
        'p99 ms': r.p99,
        '2xx': fmt(r.ok),
        'non-2xx/errors': r.failed,
        'CPU µs/req: server': r.cpu?.server ?? '–',
        database: r.cpu?.database ?? '–',
        'load gen.': r.cpu?.load ?? '–',
      })),
    );
    console.info(
      `rounds (req/s): baseline ${base.rates.map(fmt).join(' / ')} · submit-search ${submit.rates.map(fmt).join(' / ')} ` +
        `(× baseline ${perRound(submit)}) · the form ${form.rates.map(fmt).join(' / ')} ` +
        `(× baseline ${perRound(form)})`,
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
      `the form's tRPC call: ${formToSubmit.toFixed(2)}× REST submit-search (goal ≥ 0.80), ` +
        `${form.ratio.toFixed(2)}× one INSERT (goal ≥ 0.50), p99 ${form.p99} ms (goal ≤ 50 ms); ` +
        `submit-search ${submit.ratio.toFixed(2)}× (p99 ${submit.p99} ms) and partner leads ` +
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
