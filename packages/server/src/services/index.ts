import type { AppConfig } from '../config';
import type { Database } from '../db/database';

/** What procedures reach through the context: the database handles and the config. */
export type Services = {
  db: Database;
  config: AppConfig;
  /** A fresh entity manager per unit of work (MikroORM's identity map must not be shared). */
  em(): ReturnType<Database['orm']['em']['fork']>;
};

export function createServices(db: Database, config: AppConfig): Services {
  return { db, config, em: () => db.orm.em.fork() };
}
