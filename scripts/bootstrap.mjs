#!/usr/bin/env node
// Entry for every root npm script. Runs on any Node >= 20 with only npm installed:
// brings up the project's runtime (Node 24 LTS from the npm registry) and pnpm, installs the
// workspace, then runs the requested task. Plain JavaScript on purpose: nothing is installed yet.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from './server-node-flags.mjs';

const NODE_VERSION = '24.21.0';
const PNPM_VERSION = '12.21.0';
const MIN_NODE = [22, 17];

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [task = 'start', ...rest] = process.argv.slice(2);

function nodeIsRecentEnough() {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  return major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: root, ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function runOrExit(command, args, options) {
  const status = run(command, args, options);
  if (status !== 0) process.exit(status);
}

if (!nodeIsRecentEnough()) {
  // MikroORM 7 needs Node >= 22.17; re-execute this script under Node 24 from the npm registry.
  console.error(
    `[bootstrap] Node ${process.versions.node} is too old; starting Node ${NODE_VERSION} from the npm registry...`,
  );
  const status = run('npx', ['-y', `node@${NODE_VERSION}`, fileURLToPath(import.meta.url), task, ...rest]);
  process.exit(status);
}

// From here on we run on a recent Node. Children (pnpm, vitest, the server) must use it too.
const nodeBin = path.dirname(process.execPath);
const env = {
  ...process.env,
  PATH: `${nodeBin}${path.delimiter}${process.env.PATH ?? ''}`,
  COREPACK_ENABLE_STRICT: '0',
  npm_config_update_notifier: 'false',
};

function pnpm(args) {
  return run('npx', ['-y', `pnpm@${PNPM_VERSION}`, ...args], { env });
}

function pnpmOrExit(args) {
  const status = pnpm(args);
  if (status !== 0) process.exit(status);
}

function install() {
  const frozen = existsSync(path.join(root, 'pnpm-lock.yaml')) && process.env.BOOTSTRAP_UNFROZEN !== '1';
  // The CLI's own output is what matters there (a key shown once): the install says nothing unless it fails.
  const quiet = task === 'cli' || task === 'demo';
  pnpmOrExit([
    'install',
    frozen ? '--frozen-lockfile' : '--no-frozen-lockfile',
    quiet ? '--reporter=silent' : '--reporter=append-only',
  ]);
}

function build() {
  pnpmOrExit(['-r', '--workspace-concurrency=1', 'run', 'build']);
}

/**
 * The operator CLI needs only the server's bundle (issue 37: every `npm run cli` rebuilt the web app and
 * buried an API key's one-time display under its output). Built quietly; its output shown if it fails.
 */
function buildServerQuietly() {
  const result = spawnSync('npx', ['-y', `pnpm@${PNPM_VERSION}`, '--filter', '@uf/server', 'run', 'build'], {
    cwd: root,
    env,
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
    process.exit(result.status ?? 1);
  }
}

const serverEntry = path.join(root, 'packages/server/dist/main.js');
const cliEntry = path.join(root, 'packages/server/dist/cli.js');

install();
switch (task) {
  case 'install':
    break;
  case 'build':
    build();
    break;
  case 'start':
    build();
    runOrExit(process.execPath, [...SERVER_NODE_FLAGS, serverEntry, ...rest], { env });
    break;
  case 'cli':
    buildServerQuietly();
    runOrExit(process.execPath, [cliEntry, ...rest], { env });
    break;
  case 'demo':
    buildServerQuietly();
    runOrExit(process.execPath, [cliEntry, 'demo:load', ...rest], { env });
    break;
  case 'dev':
    runOrExit(process.execPath, [path.join(root, 'scripts/dev.mjs'), ...rest], { env });
    break;
  case 'test':
    runOrExit(process.execPath, [path.join(root, 'scripts/test.mjs'), ...rest], { env });
    break;
  case 'conformance':
    build();
    runOrExit(process.execPath, [path.join(root, 'scripts/conformance.mjs'), ...rest], { env });
    break;
  case 'bench':
    build();
    runOrExit(process.execPath, [path.join(root, 'bench/run.mjs'), ...rest], { env });
    break;
  case 'lint':
    pnpmOrExit(['exec', 'biome', 'check', '.']);
    break;
  case 'typecheck':
    pnpmOrExit(['-r', 'run', 'typecheck']);
    pnpmOrExit(['exec', 'tsc', '-p', 'e2e']);
    break;
  default:
    console.error(`[bootstrap] unknown task '${task}'`);
    process.exit(2);
}
