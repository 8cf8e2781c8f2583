// Lead buyers (issue 34, ADR 069), through HTTP against the built server on a fresh PostgreSQL database,
// with three buyers on a fast receiver on 127.0.0.1 (bench/support/webhook-receiver.mjs, its own process):
// the first two refuse every lead and the third buys it, so each lead goes down the whole waterfall
// (three posts, caps reserved and released).
//   1. POST /api/submit-search vs the one-INSERT baseline, same run (goal ≥ 0.75×); the sales of those
//      leads run meanwhile, in the same server process;
//   2. 200 leads/s for a while: time from each acknowledgment to the first buyer's request (goal p95 ≤ 1 s).
//
//   npm run bench buyers [-- --duration 10 --connections 32 --rate 200 --rounds 3 --warm-up 5]
import os from 'node:os';
import { apiLead, benchAdminUrl, formTokens, option, visitorLead } from './support/bodies.mjs';
import {
  pg,
  printedPort,
  printTable,
  readyAt,
  runSql,
  serverArgv,
  startProcess,
  stopProcess,
  withDatabase,
} from './support/processes.mjs';
import { inTurn, perRound } from './support/rounds.mjs';

const DURATION = Number(option('duration', '10'));
const CONNECTIONS = Number(option('connections', '32'));
const RATE = Number(option('rate', '200'));
/** Rounds of the baseline and submit-search, in turn (ADR 051), and seconds of warm-up before them. */
const ROUNDS = Number(option('rounds', '3'));
const WARM_UP = Number(option('warm-up', '5'));

const adminUrl = benchAdminUrl();
const dbName = `uf_bench_buyers_${Date.now().toString(36)}`;
const dbUrl = withDatabase(adminUrl, dbName);

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/** A buyer posting JSON to `url`: the receiver answers 200 "ok"; `buys` says what that means. */
const buyerConfig = (url, buys) => ({
  delivery: { kind: 'http', method: 'POST', url, encoding: 'json', timeoutMs: 5000 },
  fields: [
    { to: 'data.id', from: 'leadId' },
    { to: 'data.zip', from: 'zipCode' },
    { to: 'data.phone', from: 'phone', transforms: ['digits'] },
    { to: 'data.dob', from: 'birthDate', transforms: ['date:MM/DD/YYYY'] },
  ],
  responseRules: [{ when: { status: '2xx' }, outcome: buys ? 'accepted' : 'rejected' }],
  caps: [{ period: 'day', leads: 10_000_000 }],
});

async function main() {
  await runSql(adminUrl, `create database ${dbName}`);
  let receiver;
  let baseline;
  let server;
  try {
    const baselineProcess = await startProcess(
      'baseline',
      ['bench/support/insert-per-request.mjs', dbUrl],
      {},
      printedPort,
    );
    baseline = baselineProcess.child;
    const baseUrl = `http://127.0.0.1:${baselineProcess.result}/baseline`;
    // submit-search and the one-INSERT baseline in turn, ROUNDS times after a warm-up of each
    // (bench/support/rounds.mjs); `after` runs after each load of submit-search, outside the measured time.
    const paired = (label, url, bodies, after) =>
      inTurn(
        [
          {
            key: 'base',
            label: 'baseline: Fastify + 1 INSERT',
            url: baseUrl,
            pid: baseline.pid,
            bodies: async () => () => ({ body: apiLead() }),
          },
          { key: 'route', label, url, pid: server.pid, bodies, after },
        ],
        { rounds: ROUNDS, duration: DURATION, warmUp: WARM_UP, connections: CONNECTIONS, database: dbName },
      );
    const rx = await startProcess('receiver', ['bench/support/webhook-receiver.mjs'], {}, printedPort);
    receiver = rx.child;
    const rxUrl = `http://127.0.0.1:${rx.result}`;
    const stats = async () => (await fetch(`${rxUrl}/stats`)).json();

    const port = 21_000 + Math.floor(Math.random() * 10_000);
    ({ child: server } = await startProcess(
      'server',
      serverArgv(),
      {
        DATABASE_URL: dbUrl,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        DB_POOL_MAX: '20',
        WEBHOOKS_ALLOW_PRIVATE_URLS: 'true',
        TRUST_PROXY: '127.0.0.1',
      },
      readyAt(port),
    ));
    const app = `http://127.0.0.1:${port}`;
    const db = new pg.Client({ connectionString: dbUrl });
    await db.connect();
    // A throughput phase sends more leads than the tokens fetched for it: a reused token is let through
    // (an operator's setting), so every lead this bench sends is accepted and offered.
    await db.query(`insert into quality_settings (settings, version, updated_by) values ($1, 2, 'bench')`, [
      JSON.stringify({ actions: { BOT_TOKEN_REUSED: 'accept' } }),
    ]);
    const visitors = async () => {
      const token = await formTokens(app);
      return () => visitorLead(token());
    };
    const noBuyers = await paired('POST /api/submit-search, no buyers', `${app}/api/submit-search`, visitors);
    for (const [priority, path, buys] of [
      [1, '/a', false],
      [2, '/b', false],
      [3, '/c', true],
    ]) {
      await db.query(
        `insert into buyer (id, name, priority, price_cents, config) values (gen_random_uuid(), $1, $2, 500, $3)`,
        [`bench ${path}`, priority, buyerConfig(`${rxUrl}${path}`, buys)],
      );
    }
    const pending = async () =>
      Number(
        (
          await db.query(
            `select (select count(*) from lead_sale where status = 'pending')
               + (select coalesce(sum(cardinality(ids)), 0) from webhook_event) as n`,
          )
        ).rows[0].n,
      );
    const waitSold = async (ms) => {
      const deadline = Date.now() + ms;
      while ((await pending()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    };

    // 1. The write path with three buyers active (their sales run meanwhile in the same process); after each
    // load, the sales it queued are left to finish before the next load, and how long that took is kept.
    const backlogs = [];
    const submit = await paired(
      'POST /api/submit-search, 3 buyers',
      `${app}/api/submit-search`,
      visitors,
      async () => {
        const backlog = await pending();
        const drainStart = Date.now();
        await waitSold(300_000);
        backlogs.push({ backlog, seconds: (Date.now() - drainStart) / 1000 });
      },
    );

    // 2. A steady RATE leads/s, each with a token of its own: acknowledgment → first buyer's request.
    const token = await formTokens(app, RATE * DURATION + 100);
    await fetch(`${rxUrl}/reset`, { method: 'POST' });
    const acks = new Map();
    let sent = 0;
    let refused = 0;
    const started = Date.now();
    const inflight = new Set();
    while (Date.now() - started < DURATION * 1000) {
      const due = Math.floor(((Date.now() - started) / 1000) * RATE);
      while (sent < due) {
        sent += 1;
        const lead = visitorLead(token());
        const p = fetch(`${app}/api/submit-search`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...lead.headers },
          body: JSON.stringify(lead.body),
        })
          .then(async (res) => {
            const at = Date.now();
            if (res.status !== 200) refused += 1;
            else acks.set((await res.json()).id, at);
          })
          .catch(() => {
            refused += 1;
          })
          .finally(() => inflight.delete(p));
        inflight.add(p);
      }
      await new Promise((r) => setTimeout(r, 2));
    }
    await Promise.all(inflight);
    await waitSold(120_000);
    const s = await stats();
    const delays = [];
    let missing = 0;
    for (const [id, at] of acks) {
      const arrived = s.first[`/a ${id}`];
      if (arrived === undefined) missing += 1;
      else delays.push(Math.max(0, arrived - at));
    }
    delays.sort((a, b) => a - b);
    const { rows } = await db.query(
      `select status, count(*)::int as n from lead_sale where lead_id = any($1::uuid[]) group by 1 order by 1`,
      [[...acks.keys()]],
    );
    const { rows: twice } = await db.query(
      `select count(*)::int as n from (select lead_id, buyer_id from sale_attempt where not test
         group by 1, 2 having count(*) > 1) x`,
    );
    await db.end();

    const fmt = (n) => Math.round(n).toLocaleString('en-US');
    console.info(
      `\n${CONNECTIONS} connections, ${DURATION} s a load, the baseline and submit-search in turn, ${ROUNDS} rounds ` +
        `after a warm-up of each: the median round, and the median of each round's ratio (autocannon, same ` +
        `machine; load average now ${os.loadavg()[0].toFixed(1)}): three buyers (two refuse, the third buys), ` +
        `receiver on 127.0.0.1`,
    );
    printTable(
      [noBuyers, submit]
        .flatMap((r) => [r.base, r.route])
        .map((r) => ({
          target: r.label,
          'req/s': fmt(r.reqPerSec),
          'vs baseline': `${r.ratio.toFixed(2)} (${perRound(r)})`,
          'p50 ms': r.p50,
          'p99 ms': r.p99,
          '2xx': fmt(r.ok),
          'non-2xx/errors': r.failed,
        })),
    );
    console.info(
      `sales still pending when each load stopped: ${backlogs
        .map((b) => `${fmt(b.backlog)}, all done ${b.seconds.toFixed(1)} s later`)
        .join('; ')}`,
    );
    console.info(
      `${RATE} leads/s for ${DURATION} s: ${fmt(acks.size)} acknowledged (${refused} refused), sales ${rows
        .map((r) => `${r.status} ${fmt(r.n)}`)
        .join(
          ', ',
        )}; acknowledgment → first buyer's request p50 ${percentile(delays, 50)} ms, p95 ${percentile(
        delays,
        95,
      )} ms, p99 ${percentile(delays, 99)} ms (goal p95 ≤ 1000 ms; ${missing} missing)`,
    );
    console.info(
      `submit-search with three buyers: ${submit.route.ratio.toFixed(2)}× one INSERT (goal ≥ 0.75), p99 ` +
        `${submit.route.p99} ms; without buyers ${noBuyers.route.ratio.toFixed(2)}× (each round against the ` +
        `baseline measured in it); a lead offered twice to one buyer: ${twice[0].n}`,
    );
    if (
      missing > 0 ||
      twice[0].n > 0 ||
      [noBuyers, submit].some((r) => r.route.failed > 0 || r.base.failed > 0)
    ) {
      console.error('buyers bench: an invariant failed (see above)');
      process.exitCode = 1;
    }
  } finally {
    if (server) await stopProcess(server);
    if (baseline) await stopProcess(baseline);
    if (receiver) await stopProcess(receiver);
    await runSql(adminUrl, `drop database if exists ${dbName} with (force)`);
  }
}

await main();
