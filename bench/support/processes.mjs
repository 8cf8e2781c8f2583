// Helpers shared by the benchmark scripts: scratch databases and child processes that are always
// stopped when the benchmark ends (normally, on an error, or on Ctrl-C).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS as START_FLAGS } from '../../scripts/server-node-flags.mjs';
import { fromServer } from './baseline-server.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const pg = fromServer('pg');

/**
 * The node flags the server runs with in production (`npm start`, the Docker image: ADR 013), so every
 * bench measures the server users get. BENCH_SERVER_NODE_FLAGS overrides them ("" for none).
 */
export const SERVER_NODE_FLAGS = (process.env.BENCH_SERVER_NODE_FLAGS ?? START_FLAGS.join(' '))
  .split(' ')
  .filter(Boolean);
/** The node arguments that start the built server. */
export const serverArgv = (...flags) => [...flags, ...SERVER_NODE_FLAGS, 'packages/server/dist/main.js'];

const children = new Set();
export function stopAll() {
  for (const child of children) child.kill('SIGTERM');
}
process.on('exit', stopAll);
process.on('SIGINT', () => process.exit(130));

/** The same server URL pointing at another database. */
export function withDatabase(url, name) {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Runs one statement on its own connection (create/drop database). */
export async function runSql(url, sql) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

/** Starts a node process from the repository root and resolves once `ready(output)` says so. */
export async function startProcess(label, argv, env, ready) {
  const child = spawn(process.execPath, argv, { cwd: root, env: { ...process.env, ...env } });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let output = '';
  child.stdout.on('data', (d) => {
    output += d;
  });
  child.stderr.on('data', (d) => {
    output += d;
  });
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${label} exited early:\n${output}`);
    const result = await ready(output);
    if (result) return { child, result };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${label} did not start:\n${output}`);
}

export async function stopProcess(child) {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

/** Prints rows of same-keyed objects as an aligned text table. */
export function printTable(rows) {
  const keys = Object.keys(rows[0] ?? {});
  const width = (k) => Math.max(k.length, ...rows.map((r) => String(r[k]).length));
  const line = (cells) => cells.map((c, i) => String(c).padEnd(width(keys[i]))).join('  ');
  console.info(line(keys));
  for (const r of rows) console.info(line(keys.map((k) => r[k])));
}

/** A `ready` callback for startProcess: the port a bench/support server printed on its first line. */
export const printedPort = async (out) => (/^\d+\n/.test(out) ? Number(out.trim()) : null);

/** A `ready` callback for startProcess: the server on `port` answers /readyz. */
export const readyAt = (port) => async () => {
  try {
    return (await fetch(`http://127.0.0.1:${port}/readyz`)).ok;
  } catch {
    return false;
  }
};
