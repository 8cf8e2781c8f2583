// The embedded default (`npm start` with no DATABASE_URL) next to PostgreSQL from DATABASE_URL, in the
// same run, through HTTP against the built server (ADR 050):
//   start      seconds from spawning the server to /readyz answering (first start: a new data folder;
//              restart: the same folder again)
//   track      POST /api/analytics/track at 64 connections (group-committed analytics events)
//   submit     POST /api/submit-search at 32 connections (lead + consent receipt, a new person each)
//   probe      200 distinct submissions + 20 with one e-mail + 200 events at once (the integration
//              test's probe): 5xx count and whether the stored rows add up
//
//   npm run bench embedded [-- --duration 10]   (DATABASE_URL or BENCH_DATABASE_URL: PostgreSQL admin URL)
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BROWSER_UA, benchAdminUrl, next, option, trackEvent, websiteLead } from './support/bodies.mjs';
import { postLoad } from './support/load.mjs';
import {
  printTable,
  readyAt,
  runSql,
  serverArgv,
  startProcess,
  stopProcess,
  withDatabase,
} from './support/processes.mjs';

const DURATION = Number(option('duration', '10'));
const adminUrl = benchAdminUrl();

const load = (url, connections, build) => postLoad(url, { connections, duration: DURATION }, build);

const post = (url, body) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': BROWSER_UA },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  }).then(
    (r) => r.status,
    () => 599, // no answer within 30 s
  );

async function probe(app) {
  const shared = `probe.${next()}@example.com`;
  const statuses = await Promise.all([
    ...Array.from({ length: 200 }, () => post(`${app}/api/submit-search`, websiteLead())),
    ...Array.from({ length: 20 }, () => post(`${app}/api/submit-search`, websiteLead(shared))),
    ...Array.from({ length: 200 }, () => post(`${app}/api/analytics/track`, trackEvent())),
  ]);
  return statuses.filter((s) => s >= 500).length;
  // (599 = no answer within 30 s; counted as a failure too)
}

async function startServer(label, env) {
  const port = 21_000 + Math.floor(Math.random() * 10_000);
  const started = Date.now();
  const { child } = await startProcess(
    label,
    serverArgv(),
    { PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    readyAt(port),
  );
  return { child, app: `http://127.0.0.1:${port}`, seconds: (Date.now() - started) / 1000 };
}

async function measureMode(label, env) {
  const first = await startServer(label, env);
  await stopProcess(first.child);
  const server = await startServer(label, env);
  try {
    await load(`${server.app}/api/analytics/track`, 64, trackEvent); // warm-up
    const track = await load(`${server.app}/api/analytics/track`, 64, trackEvent);
    const submit = await load(`${server.app}/api/submit-search`, 32, () => websiteLead());
    const fiveHundreds = await probe(server.app);
    return {
      mode: label,
      'first start s': first.seconds.toFixed(1),
      'restart s': server.seconds.toFixed(1),
      'track req/s': Math.round(track['2xx'] / DURATION),
      'track p99 ms': track.latency.p99,
      'submit req/s': Math.round(submit['2xx'] / DURATION),
      'submit p99 ms': submit.latency.p99,
      'non-2xx under load': track.non2xx + track.errors + submit.non2xx + submit.errors,
      'probe 5xx': fiveHundreds,
    };
  } finally {
    await stopProcess(server.child);
  }
}

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'uf-bench-embedded-'));
  chmodSync(dataDir, 0o711); // reachable by the embedded PostgreSQL's unprivileged user when run as root
  const dbName = `uf_bench_embedded_${Date.now().toString(36)}`;
  await runSql(adminUrl, `create database ${dbName}`);
  const rows = [];
  try {
    rows.push(await measureMode('embedded (no DATABASE_URL)', { DATABASE_URL: '', DATA_DIR: dataDir }));
    rows.push(
      await measureMode('PostgreSQL (DATABASE_URL)', { DATABASE_URL: withDatabase(adminUrl, dbName) }),
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    await runSql(adminUrl, `drop database if exists ${dbName} with (force)`);
  }
  console.info(
    `\n${DURATION} s per load after a warm-up (autocannon on the same machine; load average now ` +
      `${os.loadavg()[0].toFixed(1)}: other work on the machine moves the figures):`,
  );
  printTable(rows);
  const [embedded, postgres] = rows;
  console.info(
    `embedded / PostgreSQL: track ${(embedded['track req/s'] / postgres['track req/s']).toFixed(2)} · ` +
      `submit ${(embedded['submit req/s'] / postgres['submit req/s']).toFixed(2)}`,
  );
  if (rows.some((r) => r['probe 5xx'] > 0 || r['non-2xx under load'] > 0)) {
    console.error('embedded bench: a mode answered errors (see above)');
    process.exitCode = 1;
  }
}

await main();
