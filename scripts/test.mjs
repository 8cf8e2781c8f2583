// `npm test`: typecheck, lint, build, then every test tier (unit, integration on PostgreSQL,
// end-to-end in Chromium). Ends with one line `N passed, N failed` for the whole run.
// `npm test -- --integration-only`: only the server integration tests (CI's second pass, on the
// embedded database). Runs under the project's Node (scripts/bootstrap.mjs), after the workspace is
// installed.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules/.bin', name);
const run = (cmd, args, extra = {}) =>
  spawnSync(cmd, args, { stdio: 'inherit', cwd: root, env: process.env, ...extra }).status ?? 1;

let passed = 0;
let failed = 0;
const failures = [];

function step(name, status) {
  if (status === 0) passed += 1;
  else {
    failed += 1;
    failures.push(name);
  }
}

const integrationOnly = process.argv.includes('--integration-only');

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!integrationOnly && !existsSync(CHROMIUM) && process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
  console.info('[test] installing Chromium from apt for the end-to-end tests...');
  run('sh', [
    '-c',
    'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null',
  ]);
}

if (!integrationOnly) {
  console.info('\n[test] typecheck');
  step('typecheck', run(process.execPath, [path.join(root, 'scripts/bootstrap.mjs'), 'typecheck']));
  console.info('\n[test] lint');
  step('lint', run(bin('biome'), ['check', '.']));
}
console.info('\n[test] build');
const buildStatus = run(process.execPath, [path.join(root, 'scripts/bootstrap.mjs'), 'build']);
step('build', buildStatus);
if (buildStatus === 0 && !integrationOnly) {
  console.info('\n[test] landing bundle budget');
  step(
    'landing bundle budget',
    run(process.execPath, [path.join(root, 'packages/web/report-bundle.mjs'), '--check']),
  );
}

// This run's own temporary folder: the tests' embedded PostgreSQL data folders land in it (os.tmpdir()
// reads TMPDIR), so the check below knows them from another checkout's or another run's on a shared
// machine, and never kills those. Traversable (0711): the embedded PostgreSQL runs as an unprivileged user
// when the tests run as root.
const runTmp = mkdtempSync(path.join(os.tmpdir(), 'uf-run-'));
chmodSync(runTmp, 0o711);
process.env.TMPDIR = runTmp;

// Processes the tests start from this checkout: the built server and CLI, and embedded PostgreSQL
// servers on temporary data folders. Any still alive after the run (beyond a short grace period for
// shutdowns in progress) is killed and fails the run. Linux (/proc) only.
function testProcesses() {
  const found = new Map();
  if (!existsSync('/proc/self/cmdline')) return found;
  const dist = path.join(root, 'packages/server/dist/');
  const tmp = path.join(runTmp, 'uf-');
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    let cmd;
    try {
      cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim();
    } catch {
      continue;
    }
    if (cmd.includes(dist) || (/\/postgres -D /.test(cmd) && cmd.includes(tmp)))
      found.set(Number(entry), cmd);
  }
  return found;
}
const before = testProcesses();

const reportDir = mkdtempSync(path.join(os.tmpdir(), 'uf-test-'));
const report = path.join(reportDir, 'vitest.json');
const projects = integrationOnly
  ? ['--project', 'integration']
  : buildStatus === 0
    ? []
    : ['--project', 'unit', '--project', 'integration'];
console.info(
  `\n[test] vitest${integrationOnly ? ' (integration only)' : buildStatus === 0 ? '' : ' (unit and integration only: the build failed)'}`,
);
const vitestStatus = run(bin('vitest'), [
  'run',
  ...projects,
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${report}`,
]);

if (existsSync(report)) {
  const r = JSON.parse(readFileSync(report, 'utf8'));
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  // A file that fails to load has no tests but is still a failure.
  const brokenFiles = r.testResults.filter((f) => f.status === 'failed' && f.assertionResults.length === 0);
  failed += brokenFiles.length;
  for (const f of brokenFiles) failures.push(path.relative(root, f.name));
  // The file, the test and the first line of its error: CI's record keeps only the tail of the output,
  // where .ci/run repeats these lines.
  for (const f of r.testResults)
    for (const a of f.assertionResults)
      if (a.status === 'failed') {
        const why = String(a.failureMessages?.[0] ?? '')
          .split('\n')[0]
          .slice(0, 300);
        failures.push(`${path.relative(root, f.name)} › ${a.fullName}${why ? ` — ${why}` : ''}`);
      }
  // An error outside any test (a global setup or teardown, an unhandled rejection) fails vitest's run
  // without failing a test: count it too.
  if (vitestStatus !== 0 && r.numFailedTests === 0 && brokenFiles.length === 0) {
    failed += 1;
    failures.push(`vitest exited with status ${vitestStatus} (an error outside the tests: see above)`);
  }
} else {
  failed += 1;
  failures.push('vitest produced no report');
}

let leftovers = [...testProcesses()].filter(([pid]) => !before.has(pid));
for (let waited = 0; leftovers.length && waited < 10_000; waited += 250) {
  await new Promise((r) => setTimeout(r, 250));
  leftovers = leftovers.filter(([pid]) => testProcesses().has(pid));
}
for (const [pid, cmd] of leftovers) {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
  failed += 1;
  failures.push(`a process started by the tests was still running (killed now): ${pid} ${cmd.slice(0, 200)}`);
}

rmSync(runTmp, { recursive: true, force: true });

if (failures.length) console.info(`\n[test] failed:\n${failures.map((f) => `  - ${f}`).join('\n')}`);
console.info(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
