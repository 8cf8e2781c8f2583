import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

// The embedded database: PGlite (PostgreSQL compiled to WebAssembly) in this process, exposed on a
// loopback port through pglite-socket so the app talks to it with the same `pg` driver, the same
// migrations and the same SQL as against a real PostgreSQL (ADR 002).

export const EMBEDDED_MAX_CONNECTIONS = 12;

export type EmbeddedDatabase = {
  url: string;
  /** Number of client connections the socket multiplexer accepts; pools must stay below it. */
  maxConnections: number;
  /** PGlite's own backup: a gzipped tarball of the data folder, consistent between statements. */
  dumpDataDir(): Promise<Blob>;
  close(): Promise<void>;
};

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** PGlite lets two processes open one data folder and corrupt it; a pid lock file prevents that. */
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

/** dataDir undefined → in-memory (tests only). */
export async function startEmbeddedDatabase(dataDir: string | undefined): Promise<EmbeddedDatabase> {
  let releaseLock = () => {};
  let db: PGlite;
  if (dataDir) {
    const pgDir = path.join(dataDir, 'pgdata');
    mkdirSync(dataDir, { recursive: true });
    releaseLock = takeLock(path.join(dataDir, 'pgdata.lock'));
    try {
      db = await PGlite.create(pgDir);
    } catch (err) {
      releaseLock();
      throw err;
    }
  } else {
    db = await PGlite.create();
  }
  const server = new PGLiteSocketServer({
    db,
    host: '127.0.0.1',
    port: 0,
    maxConnections: EMBEDDED_MAX_CONNECTIONS,
  });
  await server.start();
  // getServerConn() is "host:port" with the port the OS assigned.
  const port = Number(server.getServerConn().split(':').pop());
  return {
    url: `postgresql://postgres:postgres@127.0.0.1:${port}/postgres?sslmode=disable`,
    maxConnections: EMBEDDED_MAX_CONNECTIONS,
    dumpDataDir: () => db.dumpDataDir('gzip'),
    async close() {
      await server.stop();
      await db.close();
      releaseLock();
    },
  };
}
