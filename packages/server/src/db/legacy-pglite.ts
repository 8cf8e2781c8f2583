import { createWriteStream, existsSync, mkdirSync, renameSync } from 'node:fs';
import path from 'node:path';
import pg, { type Pool } from 'pg';
import { restoreLogicalBackup, writeLogicalBackup } from '../services/logical-backup';
import { takeLock } from './embedded';

// Until ADR 050 the embedded database was PGlite, in DATA_DIR/pgdata. The first start of this version
// on such a folder carries its data over: PGlite opens the old folder (one connection, through
// pglite-socket), a logical backup of it is written to BACKUP_DIR, and that backup is restored into the
// new embedded PostgreSQL. The old folder is then renamed, never deleted.

export type LegacyImport = { backupFile: string; keptFolder: string; rows: number } | null;

/** Imports DATA_DIR/pgdata (PGlite) into the migrated database behind `pool`, once. */
export async function importLegacyPglite(
  dataDir: string,
  backupDir: string,
  pool: Pool,
): Promise<LegacyImport> {
  const legacy = path.join(path.resolve(dataDir), 'pgdata');
  if (!existsSync(path.join(legacy, 'PG_VERSION'))) return null;
  const release = takeLock(path.join(path.resolve(dataDir), 'pgdata.lock'));
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const backupFile = path.resolve(backupDir, `uf-pglite-import-${stamp}.sql.gz`);
  try {
    const [{ PGlite }, { PGLiteSocketServer }] = await Promise.all([
      import('@electric-sql/pglite'),
      import('@electric-sql/pglite-socket'),
    ]);
    const db = await PGlite.create(legacy);
    const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 1 });
    await server.start();
    try {
      const port = Number(server.getServerConn().split(':').pop());
      const source = new pg.Pool({
        connectionString: `postgresql://postgres:postgres@127.0.0.1:${port}/postgres?sslmode=disable`,
        max: 1,
      });
      try {
        mkdirSync(backupDir, { recursive: true });
        await writeLogicalBackup(source, createWriteStream(backupFile, { mode: 0o600 }));
      } finally {
        await source.end();
      }
    } finally {
      await server.stop();
      await db.close();
    }
    const { rows } = await restoreLogicalBackup(pool, backupFile);
    const keptFolder = `${legacy}.imported-${stamp}`;
    renameSync(legacy, keptFolder);
    return { backupFile, keptFolder, rows };
  } catch (err) {
    throw new Error(
      `Could not carry over the earlier embedded database (PGlite) in ${legacy}: ${(err as Error).message}. ` +
        'Nothing was changed there; move that folder elsewhere to start without it.',
    );
  } finally {
    release();
  }
}
