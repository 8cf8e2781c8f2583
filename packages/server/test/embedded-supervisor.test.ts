import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnTracked } from './support/child-processes';
import { startLeadLoad } from './support/load';
import { waitFor } from './support/raw-http';
import { freePort } from './support/server-process';
import { tempDir } from './support/test-db';

// Issue 22, finding 2: kill -9 of the embedded PostgreSQL went unnoticed — no log line, no restart, no
// exit, /healthz 200 while every write answered 500 until someone restarted the server by hand. Now the
// server notices the exit at once, logs it, answers 503 with Retry-After while it restarts PostgreSQL
// with backoff, and exits non-zero when the restarts fail. The built server as `npm start` runs it.

const entry = path.resolve(import.meta.dirname, '../dist/main.js');
const dataDir = tempDir('uf-supervisor-');
let server: ChildProcess | undefined;
let output = '';

async function startServer(port: number) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    EMBEDDED_DB_RESTARTS: '3',
  };
  delete env.DATABASE_URL;
  const proc = spawnTracked(process.execPath, [entry], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  proc.stdout?.on('data', (d) => {
    output += d;
  });
  proc.stderr?.on('data', (d) => {
    output += d;
  });
  await waitFor(
    async () => {
      if (proc.exitCode !== null) throw new Error(`server exited (${proc.exitCode}): ${output}`);
      return fetch(`http://127.0.0.1:${port}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
    },
    60_000,
    'the server to be ready',
  );
  return proc;
}

const postmasterPid = () =>
  Number(readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);

afterAll(async () => {
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((r) => server?.once('exit', r));
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the embedded PostgreSQL killed under load', () => {
  it('is noticed, logged and restarted; writes answer 503 meanwhile, then resume; nothing acknowledged is lost', async () => {
    if (!existsSync(entry)) throw new Error(`${entry} is missing: build the server first (npm test does)`);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    server = await startServer(port);

    const health: number[] = [];
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        const status = await fetch(`${base}/healthz`).then(
          (r) => r.status,
          () => 0,
        );
        health.push(status);
        await new Promise((r) => setTimeout(r, 25));
      }
    })();
    const load = startLeadLoad(() => base);
    await waitFor(() => load.result.acknowledged.length >= 50, 60_000, 'some acknowledged leads');

    const pid = postmasterPid();
    process.kill(pid, 'SIGKILL');
    const ackedAtKill = load.result.acknowledged.length;
    await waitFor(() => (load.result.statuses.get(503) ?? 0) > 0, 30_000, 'a 503 while PostgreSQL is down');
    await waitFor(
      () => load.result.acknowledged.length >= ackedAtKill + 50,
      90_000,
      'writes to resume by themselves',
    );
    const result = await load.stop();
    watching = false;
    await watcher;

    // Never a 500: 200 or 503 (with Retry-After, checked by the timeouts test) only; no lost answers.
    expect([...result.statuses.keys()].sort()).toEqual([200, 503]);
    expect(result.noAnswer).toEqual([]);
    expect(result.malformed503).toBe(0);
    expect(postmasterPid()).not.toBe(pid);
    expect(output).toContain('stopped unexpectedly');
    expect(health).toContain(503);
    expect(health.at(-1)).toBe(200);

    // Every acknowledged lead is there.
    for (let i = 0; i < result.acknowledged.length; i += 50) {
      const reads = await Promise.all(
        result.acknowledged
          .slice(i, i + 50)
          .map((a) => fetch(`${base}/api/leads/${a.id}`).then((r) => r.status)),
      );
      expect(reads.every((s) => s === 200)).toBe(true);
    }
  });

  it('exits non-zero when PostgreSQL cannot be restarted, so a supervisor takes over', async () => {
    const cluster = path.join(dataDir, 'postgres');
    const moved = path.join(dataDir, 'postgres.moved');
    const exited = new Promise<number | null>((resolve) => server?.once('exit', (code) => resolve(code)));
    const pid = postmasterPid();
    renameSync(cluster, moved);
    try {
      process.kill(pid, 'SIGKILL');
      const code = await exited;
      expect(code).not.toBe(0);
      expect(output).toContain('embedded PostgreSQL failed');
    } finally {
      renameSync(moved, cluster);
    }
  });
});
