import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app';
import { type AppConfig, loadConfig } from '../../src/config';
import { createTestDatabase, type TestDatabase } from './test-db';

export type TestApp = { app: FastifyInstance; db: TestDatabase; config: AppConfig; close(): Promise<void> };

/** A real app instance (migrated) on its own fresh database. */
export async function startTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const db = await createTestDatabase();
  const config = loadConfig({ LOG_LEVEL: 'silent', DB_POOL_MAX: '10', ...env });
  const app = await buildApp(config, { databaseUrl: db.url });
  await app.ready();
  return {
    app,
    db,
    config,
    async close() {
      await app.close();
      await db.drop();
    },
  };
}
