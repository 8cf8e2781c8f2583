// `npm run conformance`: the spec's black-box suite (../shared/conformance) against the product as a
// user starts it. Runs under the project's Node (scripts/bootstrap.mjs), after install and build:
//
//  1. a fresh database: with no DATABASE_URL the embedded PostgreSQL in a new temporary DATA_DIR (the
//     default `npm start` path); with DATABASE_URL a new database on that server, dropped afterwards;
//  2. a partner API key through the operator CLI (`dist/cli.js api-key:create`), before the server
//     starts: the embedded database takes one process at a time (its lock), and the CLI is the only
//     way an operator makes a key;
//  3. the built server (`dist/main.js` with npm start's node flags) on a free port, the first admin
//     made from ADMIN_USERNAME / ADMIN_PASSWORD (generated when unset), then /readyz;
//  4. every test file of the suite (`run.sh`), from a private writable copy of it;
//  5. everything started here is stopped — on success, failure, error or Ctrl-C — and the temporary
//     folder (or database) removed. The suite's report and the server log are kept in
//     test-results/conformance/.
//
// Exits non-zero when a test fails, is skipped, or the run could not happen. The last line printed is
// the suite's `N passed, N failed, N skipped`.
//
// Environment: CONFORMANCE_DIR (the suite; else ../shared/conformance beside the repository, else
// /work/shared/conformance), CONFORMANCE_PORT (else a free port), CONFORMANCE_TIMEOUT_MINUTES (40),
// DATABASE_URL, TIME_ZONE (else this machine's zone), ADMIN_USERNAME / ADMIN_PASSWORD,
// TEST_NAME_PATTERN and CHROMIUM_PATH (passed to the suite). Arguments are passed to run.sh (test files, e.g. tests/09-admin-leads.test.js).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from './server-node-flags.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverEntry = path.join(root, 'packages/server/dist/main.js');
const cliEntry = path.join(root, 'packages/server/dist/cli.js');
const resultsDir = path.join(root, 'test-results/conformance');
const suiteArgs = process.argv.slice(2);
const started = Date.now();

const log = (line) => console.info(`[conformance] ${line}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const elapsed = () => {
  const s = Math.round((Date.now() - started) / 1000);
  return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
};

class RunError extends Error {}

function findSuite() {
  const fromEnv = process.env.CONFORMANCE_DIR;
  const candidates = fromEnv
    ? [path.resolve(fromEnv)]
    : [path.resolve(root, '../shared/conformance'), '/work/shared/conformance'];
  for (const dir of candidates) if (existsSync(path.join(dir, 'run.sh'))) return dir;
  throw new RunError(
    `the conformance suite was not found (looked for run.sh in ${candidates.join(', ')}). ` +
      'Set CONFORMANCE_DIR to the suite folder. Nothing was tested.',
  );
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
    srv.on('error', reject);
  });
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const running = (child) => child && child.exitCode === null && child.signalCode === null;
const exited = (child) => (running(child) ? new Promise((r) => child.once('exit', r)) : Promise.resolve());

/** Signals a child's whole process group (children spawned detached lead their own group). */
function signalGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}

async function stopChild(child, { signal, graceMs, group }) {
  if (!running(child)) return;
  if (group) signalGroup(child, signal);
  else child.kill(signal);
  await Promise.race([exited(child), sleep(graceMs)]);
  if (running(child)) {
    log(`process ${child.pid} did not stop in ${graceMs / 1000} s: killing it`);
    signalGroup(child, 'SIGKILL');
    await exited(child);
  }
}

// --- the database --------------------------------------------------------------------------------

const pg = createRequire(path.join(root, 'packages/server/package.json'))('pg');

async function runSql(url, sql) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A new, empty database on the server of `url`. */
async function createScratchDatabase(url) {
  const name = `uf_conformance_${Date.now().toString(36)}_${process.pid}`;
  await runSql(url, `CREATE DATABASE "${name}"`);
  const scratch = new URL(url);
  scratch.pathname = `/${name}`;
  return {
    name,
    url: scratch.toString(),
    drop: () => runSql(url, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

/** An embedded PostgreSQL whose owner died before stopping it (the server's own safety net failed). */
async function stopOrphanPostgres(dataDir) {
  const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return;
  log(`stopping the embedded PostgreSQL left running (pid ${pid})`);
  process.kill(pid, 'SIGINT');
  for (let waited = 0; isAlive(pid) && waited < 20_000; waited += 100) await sleep(100);
  if (isAlive(pid)) process.kill(pid, 'SIGKILL');
}

/**
 * The last sweep: every process whose command line names this run's folder — the server's link, the
 * embedded PostgreSQL's data folder, Chromium's profile (the suite runs with TMPDIR inside the folder;
 * Playwright starts Chromium in a process group of its own). Normally none is left; any that is, is
 * killed and named. Linux (/proc) only.
 */
async function killLeftovers(workDir) {
  if (!existsSync('/proc/self/cmdline')) return;
  const found = () =>
    readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid)
      .flatMap((entry) => {
        try {
          const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ');
          return cmd.includes(workDir) ? [[Number(entry), cmd]] : [];
        } catch {
          return [];
        }
      });
  const left = found();
  for (const [pid, cmd] of left) {
    log(`still running, killing it: ${pid} ${cmd.slice(0, 160)}`);
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
  for (let waited = 0; left.length && found().length && waited < 5000; waited += 100) await sleep(100);
}

// --- the run -------------------------------------------------------------------------------------

const state = {
  workDir: undefined,
  dataDir: undefined,
  scratchDb: undefined,
  cli: undefined,
  server: undefined,
  suite: undefined,
  suiteDir: undefined,
  serverLog: undefined,
};

let cleaning;
function cleanup() {
  cleaning ??= (async () => {
    const problems = [];
    const attempt = async (what, fn) => {
      try {
        await fn();
      } catch (err) {
        problems.push(`${what}: ${err instanceof Error ? err.message : err}`);
      }
    };
    await attempt('stop the suite', () =>
      stopChild(state.suite, { signal: 'SIGTERM', graceMs: 5000, group: true }),
    );
    await attempt('stop the CLI', () =>
      stopChild(state.cli, { signal: 'SIGTERM', graceMs: 20_000, group: true }),
    );
    // The server stops its embedded PostgreSQL itself (and forces its own exit after 15 s).
    await attempt('stop the server', () =>
      stopChild(state.server, { signal: 'SIGTERM', graceMs: 25_000, group: false }),
    );
    if (state.dataDir) await attempt('stop the embedded PostgreSQL', () => stopOrphanPostgres(state.dataDir));
    if (state.workDir) await attempt('stop what is left', () => killLeftovers(state.workDir));
    if (state.scratchDb) await attempt(`drop database ${state.scratchDb.name}`, () => state.scratchDb.drop());
    await attempt('keep the results', () => {
      if (!state.workDir) return;
      rmSync(resultsDir, { recursive: true, force: true });
      mkdirSync(resultsDir, { recursive: true });
      const out = state.suiteDir && path.join(state.suiteDir, 'out');
      if (out && existsSync(out)) cpSync(out, resultsDir, { recursive: true });
      rmSync(path.join(resultsDir, '.admin-session.json'), { force: true });
      if (state.serverLog && existsSync(state.serverLog))
        cpSync(state.serverLog, path.join(resultsDir, 'server.log'));
    });
    if (state.workDir)
      await attempt('remove the temporary folder', () =>
        rmSync(state.workDir, { recursive: true, force: true }),
      );
    for (const p of problems) log(`cleanup: could not ${p}`);
    return problems.length === 0;
  })();
  return cleaning;
}

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    log(`${signal}: stopping everything this run started...`);
    void cleanup().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  });
}
// Last resort if the process ends some other way: nothing started here may outlive it.
process.on('exit', () => {
  for (const child of [state.suite, state.cli, state.server])
    if (running(child)) signalGroup(child, 'SIGKILL');
});

function tail(file, lines = 40) {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no output)';
  }
}

function runCli(env, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliEntry, ...args], {
      cwd: root,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    state.cli = child;
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      state.cli = undefined;
      if (code === 0) resolve(output);
      else reject(new RunError(`cli ${args[0]} failed (exit ${code}):\n${output.trim()}`));
    });
  });
}

async function waitForReady(baseUrl, server, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!running(server)) {
      throw new RunError(
        `the server exited while starting (code ${server.exitCode}):\n${tail(state.serverLog)}`,
      );
    }
    try {
      if ((await fetch(`${baseUrl}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  throw new RunError(`the server was not ready after ${timeoutMs / 1000} s:\n${tail(state.serverLog)}`);
}

function readSummary() {
  try {
    return JSON.parse(readFileSync(path.join(state.suiteDir, 'out/last.json'), 'utf8'));
  } catch {
    return undefined;
  }
}

async function main() {
  const suiteSource = findSuite();
  for (const entry of [serverEntry, cliEntry])
    if (!existsSync(entry)) throw new RunError(`${entry} is missing: the build did not run`);

  state.workDir = mkdtempSync(path.join(os.tmpdir(), 'uf-conformance-'));
  chmodSync(state.workDir, 0o711); // the embedded PostgreSQL's unprivileged user passes through (as root)
  state.dataDir = path.join(state.workDir, 'data');
  mkdirSync(state.dataDir, { mode: 0o711 });
  chmodSync(state.dataDir, 0o711);
  state.serverLog = path.join(state.workDir, 'server.log');

  // A private, writable copy of the suite: its run writes out/ (and node_modules/ on first use), and
  // two runs on one machine must not share them.
  state.suiteDir = path.join(state.workDir, 'suite');
  cpSync(suiteSource, state.suiteDir, {
    recursive: true,
    filter: (src) => path.relative(suiteSource, src).split(path.sep)[0] !== 'out',
  });
  makeWritable(state.suiteDir);
  log(`suite: ${suiteSource}`);

  const env = { ...process.env, DATA_DIR: state.dataDir, HOST: '127.0.0.1' };
  // The suite takes "today" (the legal pages' last-updated date, the export file names, a filter of
  // today's leads) as this machine's local or UTC date, while the product counts its days in
  // TIME_ZONE (America/New_York unless set, ADR 060). The server under test keeps its business clock on
  // this machine's zone, as a server set up where its business is would; else between midnight UTC and
  // New York's midnight its "today" is the day before the suite's and the run fails by the hour it
  // started. A TIME_ZONE given to this script is kept.
  env.TIME_ZONE = process.env.TIME_ZONE || Intl.DateTimeFormat().resolvedOptions().timeZone;
  delete env.DATABASE_URL;
  if (process.env.DATABASE_URL) {
    state.scratchDb = await createScratchDatabase(process.env.DATABASE_URL);
    env.DATABASE_URL = state.scratchDb.url;
    log(`database: a new database ${state.scratchDb.name} on the DATABASE_URL server`);
  } else {
    log(`database: the embedded PostgreSQL in a new DATA_DIR ${state.dataDir}`);
  }

  // 2. The partner key, through the operator CLI, before the server holds the database.
  const cliOutput = await runCli(env, ['api-key:create', 'Conformance suite']);
  const partnerKey = cliOutput.match(/^Key \(shown only now[^)]*\): (\S+)/m)?.[1];
  if (!partnerKey) throw new RunError(`api-key:create printed no key:\n${cliOutput}`);
  log('partner API key created with the CLI (api-key:create)');

  // 3. The server, as npm start runs it, with the first admin from the environment.
  const adminUsername = process.env.ADMIN_USERNAME || 'conformance';
  const adminPassword = process.env.ADMIN_PASSWORD || randomBytes(12).toString('base64url');
  const port = Number(process.env.CONFORMANCE_PORT) || (await freePort());
  const baseUrl = `http://127.0.0.1:${port}`;
  const logFd = openSync(state.serverLog, 'a');
  // The same file through a link named after this run: Node runs the link's target (its real path, so
  // the server finds everything as from dist/), and the command line says whose server it is, so a
  // `pkill -f dist/main.js` meant for another server on a shared machine does not stop this one.
  const entry = path.join(state.workDir, 'uf-conformance-server.js');
  symlinkSync(serverEntry, entry);
  state.server = spawn(process.execPath, [...SERVER_NODE_FLAGS, entry], {
    cwd: root,
    env: { ...env, PORT: String(port), ADMIN_USERNAME: adminUsername, ADMIN_PASSWORD: adminPassword },
    detached: true, // its own process group: Ctrl-C reaches this script, which stops it in order
    stdio: ['ignore', logFd, logFd],
  });
  closeSync(logFd);
  log(
    `server: ${process.execPath} ${[...SERVER_NODE_FLAGS, path.relative(root, serverEntry)].join(' ')} ` +
      `(through ${path.basename(entry)}) on ${baseUrl}`,
  );
  await waitForReady(baseUrl, state.server);
  if (!readFileSync(state.serverLog, 'utf8').includes(`Sign in as '${adminUsername}'`)) {
    throw new RunError(
      `the server did not create the first admin '${adminUsername}':\n${tail(state.serverLog)}`,
    );
  }
  log(
    `server ready after ${elapsed()} (TIME_ZONE ${env.TIME_ZONE}); first admin '${adminUsername}' created from ADMIN_USERNAME/ADMIN_PASSWORD`,
  );

  // 4. The suite.
  const timeoutMin = Number(process.env.CONFORMANCE_TIMEOUT_MINUTES) || 40;
  const suiteTmp = path.join(state.workDir, 'tmp');
  mkdirSync(suiteTmp);
  const suiteEnv = {
    ...process.env,
    TMPDIR: suiteTmp,
    BASE_URL: baseUrl,
    ADMIN_USERNAME: adminUsername,
    ADMIN_PASSWORD: adminPassword,
    PARTNER_API_KEY: partnerKey,
  };
  if (state.scratchDb) suiteEnv.DATABASE_URL = state.scratchDb.url;
  else delete suiteEnv.DATABASE_URL;
  state.suite = spawn('bash', [path.join(state.suiteDir, 'run.sh'), ...suiteArgs], {
    cwd: state.suiteDir,
    env: suiteEnv,
    detached: true, // Chromium and node --test in one group, stopped together
    stdio: 'inherit',
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    log(`the suite ran longer than ${timeoutMin} minutes: stopping it`);
    signalGroup(state.suite, 'SIGTERM');
    setTimeout(() => signalGroup(state.suite, 'SIGKILL'), 5000).unref();
  }, timeoutMin * 60_000);
  const suiteStatus = await new Promise((resolve) =>
    state.suite.once('exit', (code, signal) => resolve(code ?? signal)),
  );
  clearTimeout(timer);
  state.suite = undefined;

  const report = readSummary();
  if (!running(state.server)) {
    log(`the server stopped during the run (exit ${state.server.exitCode ?? state.server.signalCode}):`);
    console.info(tail(state.serverLog));
  }
  return { suiteStatus, timedOut, report, serverDied: !running(state.server) };
}

/** The suite may be laid out without write bits (CI's copy of shared/): its copy must be writable. */
function makeWritable(dir) {
  chmodSync(dir, 0o755);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) makeWritable(full);
    else if (entry.isFile()) chmodSync(full, entry.name.endsWith('.sh') ? 0o755 : 0o644);
  }
}

let result;
let error;
try {
  result = await main();
} catch (err) {
  error = err;
}
const cleanedUp = await cleanup();
if (interrupted) await new Promise(() => {}); // the signal handler exits

if (error) {
  console.error(`[conformance] ${error instanceof RunError ? error.message : (error?.stack ?? error)}`);
  console.error('[conformance] the suite did not run to the end: this counts as a failure');
  log(`took ${elapsed()}`);
  console.info('0 passed, 1 failed, 0 skipped');
  process.exit(1);
}

const summary = result.report?.summary;
const tests = Object.entries(result.report?.tests ?? {});
// Tests that contradict the spec (the suite's defects: docs/conformance.md) still run. Their failure is
// reported by name with the spec line and the reason, and not counted; one that passes, or no longer
// exists, is reported so the list is kept true.
const defects = JSON.parse(readFileSync(path.join(root, 'scripts/conformance-suite-defects.json'), 'utf8'));
const defectOf = (title) => defects.find((d) => d.test === title);
const defectFailures = tests.filter(([title, t]) => t.status === 'fail' && defectOf(title));
const failedTests = tests.filter(([title, t]) => t.status === 'fail' && !defectOf(title));
const skippedTests = tests.filter(([, t]) => t.status !== 'pass' && t.status !== 'fail');
for (const d of defects) {
  const ran = result.report?.tests?.[d.test];
  if (ran?.status === 'fail')
    log(`suite defect, failed as recorded (not counted): ${d.test}\n    spec: ${d.spec}\n    why: ${d.why}`);
  else if (ran)
    log(`listed as a suite defect, ${ran.status === 'pass' ? 'passed' : ran.status} this time: ${d.test}`);
}
if (failedTests.length)
  log(`failed:\n${failedTests.map(([title, t]) => `  - ${title} (${t.file})`).join('\n')}`);
// A skipped test checked nothing: it is reported by name and fails the run.
if (skippedTests.length)
  log(
    `skipped (counted as failures):\n${skippedTests.map(([title, t]) => `  - ${title} (${t.file})`).join('\n')}`,
  );
log(`results: ${path.relative(root, resultsDir)}/ (last.json, server.log)`);
log(`took ${elapsed()}`);
// run.sh exits non-zero on any failing test, a recorded suite defect included.
const suiteOk = result.suiteStatus === 0 || (failedTests.length === 0 && defectFailures.length > 0);
const ok =
  summary &&
  suiteOk &&
  !result.timedOut &&
  !result.serverDied &&
  failedTests.length === 0 &&
  skippedTests.length === 0 &&
  summary.passed > 0 &&
  cleanedUp;
if (!summary) log('the suite wrote no report');
if (!cleanedUp)
  log('something this run started could not be stopped or removed (see above): failing the run');
if (result.serverDied) log('the server died during the run: failing the run');
if (result.timedOut) log('the suite timed out: failing the run');
if (defectFailures.length)
  log(
    `${defectFailures.length} failing test(s) contradict the spec (suite defects, listed above): not counted`,
  );
// The closing line CI reads. A run that failed without a failing test (a skip, the server dying, a
// timeout, a leftover) still shows at least one failure.
const failedCount = failedTests.length;
console.info(
  `${summary?.passed ?? 0} passed, ${failedCount === 0 && !ok ? 1 : failedCount} failed, ${summary?.skipped ?? 0} skipped`,
);
process.exit(ok ? 0 : 1);
