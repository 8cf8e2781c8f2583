import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isProcessAlive, startEmbeddedDatabase } from '../src/db/embedded';
import { spawnTracked } from './support/child-processes';
import { leadBody } from './support/fixtures';
import { expectProbeStored, sendProbeBurst } from './support/probe';
import { freePort } from './support/server-process';
import { tempDir } from './support/test-db';

// The embedded mode as `npm start` runs it: the built server with no DATABASE_URL, its own PostgreSQL
// in DATA_DIR.
const entry = path.resolve(import.meta.dirname, '../dist/main.js');
const dataDir = tempDir('uf-embedded-');
let child: ChildProcess | undefined;

async function startServer(port: number): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  const proc = spawnTracked(process.execPath, [entry], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  proc.stdout?.on('data', (d) => {
    output += d;
  });
  proc.stderr?.on('data', (d) => {
    output += d;
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`server exited (${proc.exitCode}): ${output}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) return proc;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server not ready: ${output}`);
}

async function stopServer(proc: ChildProcess) {
  proc.kill('SIGTERM');
  await new Promise((r) => proc.once('exit', r));
}

afterAll(async () => {
  if (child && child.exitCode === null) await stopServer(child);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('embedded mode (no DATABASE_URL)', () => {
  it('starts, migrates, stores a lead and keeps it across a restart', async () => {
    if (!existsSync(entry)) throw new Error(`${entry} is missing: build the server first (npm test does)`);
    const port = await freePort();
    child = await startServer(port);
    const res = await fetch(`http://127.0.0.1:${port}/api/submit-search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(leadBody({ zipCode: '10001' })),
    });
    expect(res.status).toBe(200);
    const { id } = (await res.json()) as { id: string };
    await stopServer(child);
    expect(existsSync(path.join(dataDir, 'postgres.lock'))).toBe(false);

    child = await startServer(port);
    const read = await fetch(`http://127.0.0.1:${port}/api/leads/${id}`);
    expect(await read.json()).toEqual({ id, state: 'NY' });
    await stopServer(child);
  });

  it('passes the concurrency probe: real sessions for every connection', async () => {
    const port = await freePort();
    child = await startServer(port);
    const shared = await sendProbeBurst(`http://127.0.0.1:${port}`);
    await stopServer(child);
    const embedded = await startEmbeddedDatabase(dataDir);
    try {
      await expectProbeStored(embedded.url, shared);
    } finally {
      await embedded.close();
    }
  });

  it('leaves no PostgreSQL behind when the server is killed, and starts again on the same data', async () => {
    const port = await freePort();
    child = await startServer(port);
    const pid = Number(readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
    child.kill('SIGKILL');
    await new Promise((r) => child?.once('exit', r));
    const deadline = Date.now() + 20_000;
    while (isProcessAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(isProcessAlive(pid)).toBe(false);
    child = await startServer(port);
    const res = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(res.status).toBe(200);
    await stopServer(child);
  });
});
