import type { AppConfig } from '../config';
import { type Database, migrate, openDatabase } from './database';
import { type EmbeddedDatabase, startEmbeddedDatabase } from './embedded';
import { importLegacyPglite } from './legacy-pglite';

export type Connected = {
  db: Database;
  url: string;
  embedded: EmbeddedDatabase | undefined;
  close(): Promise<void>;
};

/** The database the config points at: DATABASE_URL, or the embedded PostgreSQL in DATA_DIR (started here). */
export async function startConfiguredDatabase(
  config: AppConfig,
): Promise<{ url: string; embedded?: EmbeddedDatabase }> {
  if (config.databaseUrl) return { url: config.databaseUrl };
  const embedded = await startEmbeddedDatabase(config.dataDir, { maxRestarts: config.embeddedDbRestarts });
  return { url: embedded.url, embedded };
}

/** The embedded database's first start on a PGlite folder of an earlier version imports it (ADR 050). */
export async function carryOverLegacyData(config: AppConfig, db: Database, log = console.info) {
  const imported = await importLegacyPglite(config.dataDir, config.backupDir, db.pool);
  if (imported) {
    log(
      `[server] carried over ${imported.rows} rows from the earlier embedded database (PGlite); ` +
        `its folder is kept as ${imported.keptFolder}, and the data as ${imported.backupFile}`,
    );
  }
}

/** For CLI commands: connect, migrate, and close everything afterwards. */
export async function connectForCommand(config: AppConfig): Promise<Connected> {
  const { url, embedded } = await startConfiguredDatabase(config);
  try {
    const db = await openDatabase({ url, poolMax: Math.min(config.dbPoolMax, 4) });
    await migrate(db);
    if (embedded) await carryOverLegacyData(config, db);
    return {
      db,
      url,
      embedded,
      async close() {
        await db.close();
        await embedded?.close();
      },
    };
  } catch (err) {
    await embedded?.close();
    throw err;
  }
}
