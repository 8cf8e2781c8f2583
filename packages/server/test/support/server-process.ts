import { type ChildProcess, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { spawnTracked } from './child-processes';

// The built server (packages/server/dist/main.js) as its own process, as production runs it.
// `npm test` builds before the test tiers; a bare vitest run builds the server here if it is missing.

const serverDir = path.resolve(import.meta.dirname, '../..');
const entry = path.join(serverDir, 'dist/main.js');
const cliEntry = path.join(serverDir, 'dist/cli.js');

export type ServerProcess = {
  url: string;
  child: ChildProcess;
  output(): string;
  /** Sends `signal` and resolves with the exit code once the process has ended. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
};

function ensureBuilt() {
  if (existsSync(entry) && existsSync(cliEntry)) return;
  const r = spawnSync(process.execPath, ['build.mjs'], { cwd: serverDir, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`could not build the server: ${r.stderr}`);
}

/** Starts the server on a free port (PORT=0; the port is read from its start-up banner) and waits for /readyz. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  ensureBuilt();
  const child = spawnTracked(process.execPath, [entry], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };

  const deadline = Date.now() + 60_000;
  let url: string | undefined;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${output}`);
    const port = /Site:\s+http:\/\/[^/\s]+:(\d+)\//.exec(output)?.[1];
    if (port) {
      url = `http://127.0.0.1:${port}`;
      try {
        if ((await fetch(`${url}/readyz`)).ok) return { url, child, output: () => output, stop };
      } catch {
        // listening, not answering yet
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop('SIGKILL');
  throw new Error(`server not ready within 60 s:\n${output}`);
}

/** Runs the built operator CLI (`npm run cli -- …` in production) to completion. */
export function runCli(args: string[], env: Record<string, string>, input?: string) {
  ensureBuilt();
  return spawnSync(process.execPath, [cliEntry, ...args], {
    env: { ...process.env, ...env },
    input,
    encoding: 'utf8',
    timeout: 120_000,
  });
}

/** A TCP port that was free a moment ago, for programs that must be told their port in advance. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
    srv.on('error', reject);
  });
}
