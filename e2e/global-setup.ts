import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

// Starts the built server (packages/server/dist) once for the end-to-end run, on a fresh database:
// a new database in DATABASE_URL's server when given, else the server's embedded PostgreSQL in a temp folder.

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    e2eDatabaseUrl: string | null;
  }
}

const root = path.resolve(import.meta.dirname, '..');

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

export default async function setup(project: TestProject) {
  const entry = path.join(root, 'packages/server/dist/main.js');
  if (!existsSync(entry) || !existsSync(path.join(root, 'packages/web/dist/index.html'))) {
    throw new Error(
      'Build first: the end-to-end tests run against packages/server/dist and packages/web/dist.',
    );
  }
  const adminUrl = process.env.DATABASE_URL;
  let databaseUrl: string | null = null;
  let dbName: string | null = null;
  if (adminUrl) {
    dbName = `uf_e2e_${Date.now().toString(36)}`;
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    await c.query(`create database ${dbName}`);
    await c.end();
    const u = new URL(adminUrl);
    u.pathname = `/${dbName}`;
    databaseUrl = u.toString();
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'uf-e2e-'));
  chmodSync(dataDir, 0o711); // reachable by the embedded PostgreSQL's unprivileged user when run as root
  const port = await freePort();
  const child = spawn(process.execPath, [entry], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl ?? '',
      LOG_LEVEL: 'warn',
      ADMIN_USERNAME: 'e2e-admin',
      ADMIN_PASSWORD: 'e2e-password-123',
      // The analytics tests send visitors' countries the way Cloudflare would (issue 5).
      ANALYTICS_COUNTRY_HEADER: 'CF-IPCountry',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForReady(baseUrl, child);
  } catch (err) {
    // Never leave the server behind when the run cannot start.
    child.kill('SIGKILL');
    throw err;
  }
  console.info(
    `[e2e] server at ${baseUrl} on ${adminUrl ? 'PostgreSQL from DATABASE_URL' : 'the embedded PostgreSQL'}`,
  );
  project.provide('baseUrl', baseUrl);
  project.provide('e2eDatabaseUrl', databaseUrl);

  return async () => {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
    if (adminUrl && dbName) {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${dbName} with (force)`);
      await c.end();
    }
  };
}
