import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

// The built server (packages/server/dist/main.js) as its own process on a free port, with its own
// temporary DATA_DIR (used when DATABASE_URL is empty): for the e2e run and for tests that need the
// server under another configuration. stop() ends it and removes the folder.

const root = path.resolve(import.meta.dirname, '../..');
export const SERVER_ENTRY = path.join(root, 'packages/server/dist/main.js');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

async function waitForReady(url: string, child: ChildProcess, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early with code ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/readyz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not become ready in time');
}

export type BuiltServer = { url: string; stop(): Promise<void> };

export async function startBuiltServer(
  env: Record<string, string>,
  stdio: 'ignore' | 'inherit' = 'ignore',
): Promise<BuiltServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'uf-e2e-'));
  chmodSync(dataDir, 0o711); // reachable by the embedded PostgreSQL's unprivileged user when run as root
  const port = await freePort();
  const child = spawn(process.execPath, [SERVER_ENTRY], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', stdio, stdio],
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForReady(url, child);
  } catch (err) {
    // Never leave the server behind when it cannot start.
    child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  return {
    url,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
