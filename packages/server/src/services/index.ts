import type { AppConfig } from '../config';
import type { Database } from '../db/database';
import type { BackupSource } from './backup.service';

/** What procedures reach through the context: the database handles and the config. */
export type Services = {
  db: Database;
  config: AppConfig;
  /** What POST /api/admin/backup dumps: the PostgreSQL (pg_dump) or the embedded PGlite. */
  backupSource: BackupSource;
  /** A fresh entity manager per unit of work (MikroORM's identity map must not be shared). */
  em(): ReturnType<Database['orm']['em']['fork']>;
};

export function createServices(db: Database, config: AppConfig, backupSource: BackupSource): Services {
  return { db, config, backupSource, em: () => db.orm.em.fork() };
}
