import { execFileSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg, { type Pool } from 'pg';
import { restoreLogicalBackup, writeLogicalBackup } from '../backups/logical-backup';
import { takeLock } from './embedded';

// Until ADR 050 the embedded database was PGlite, in DATA_DIR/pgdata. The first start of this version
// on such a folder carries its data over: PGlite opens the old folder (one connection, through
// pglite-socket), a logical backup of it is written to BACKUP_DIR, and that backup is restored into the
// new embedded PostgreSQL. The old folder is then renamed, never deleted.

// PGlite (27 MB) is not a production dependency (issue 23): it is needed once, for this carry-over, on
// installations that still have such a folder. A development install has it (the tests make legacy
// folders with it); anywhere else it is fetched on demand from the npm registry, at these versions
// (the catalog's; a unit test keeps them in step), into DATA_DIR/.pglite-import, and removed by hand
// afterwards if wanted.
export const PGLITE_PACKAGES = {
  '@electric-sql/pglite': '0.5.14',
  '@electric-sql/pglite-socket': '0.2.17',
} as const;

type PgliteModules = {
  PGlite: typeof import('@electric-sql/pglite').PGlite;
  PGLiteSocketServer: typeof import('@electric-sql/pglite-socket').PGLiteSocketServer;
};

const isMissingModule = (err: unknown) =>
  (err as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' ||
  (err as { code?: string }).code === 'MODULE_NOT_FOUND';

/** PGlite from the install, or fetched once with npm into `toolsDir` (`fetch: 'always'` skips the install's). */
export async function loadPglite(toolsDir: string, fetch: 'when-missing' | 'always' = 'when-missing') {
  if (fetch === 'when-missing') {
    try {
      const [{ PGlite }, { PGLiteSocketServer }] = await Promise.all([
        import('@electric-sql/pglite'),
        import('@electric-sql/pglite-socket'),
      ]);
      return { PGlite, PGLiteSocketServer } satisfies PgliteModules;
    } catch (err) {
      if (!isMissingModule(err)) throw err;
    }
  }
  const loader = path.join(toolsDir, 'load-pglite.mjs');
  if (!existsSync(loader)) {
    mkdirSync(toolsDir, { recursive: true });
    writeFileSync(path.join(toolsDir, 'package.json'), '{"private":true}\n');
    console.info(
      `[server] fetching PGlite from the npm registry into ${toolsDir} (once, to carry over old data)`,
    );
    execFileSync(
      process.platform === 'win32' ? 'npm.cmd' : 'npm',
      [
        'install',
        '--no-save',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        ...Object.entries(PGLITE_PACKAGES).map(([name, version]) => `${name}@${version}`),
      ],
      { cwd: toolsDir, stdio: ['ignore', 'inherit', 'inherit'] },
    );
    // Bare imports resolve from this file's folder, i.e. toolsDir/node_modules.
    writeFileSync(
      loader,
      "export { PGlite } from '@electric-sql/pglite';\nexport { PGLiteSocketServer } from '@electric-sql/pglite-socket';\n",
    );
  }
  return (await import(pathToFileURL(loader).href)) as PgliteModules;
}

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
    const { PGlite, PGLiteSocketServer } = await loadPglite(
      path.join(path.resolve(dataDir), '.pglite-import'),
    );
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
