import type { FastifyInstance } from 'fastify';
import { type BuildOptions, buildApp } from '../../src/app';
import { type AppConfig, loadConfig } from '../../src/config';
import { createTestDatabase, type TestDatabase } from './test-db';

export type TestApp = { app: FastifyInstance; db: TestDatabase; config: AppConfig; close(): Promise<void> };

/**
 * scrypt at 2^14 in tests (an explicit setting, ADMIN_PASSWORD_SCRYPT_LOG_N): the production default, 2^17,
 * costs 128 MiB and about half a second per hash. admin-account.test.ts checks the default itself.
 */
export const TEST_SCRYPT_LOG_N = 14;

/** A real app instance (migrated) on its own fresh database. */
export async function startTestApp(
  env: Record<string, string> = {},
  options: Omit<BuildOptions, 'databaseUrl'> = {},
): Promise<TestApp> {
  const db = await createTestDatabase();
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    DB_POOL_MAX: '10',
    ADMIN_PASSWORD_SCRYPT_LOG_N: String(TEST_SCRYPT_LOG_N),
    ...env,
  });
  const app = await buildApp(config, { ...options, databaseUrl: db.url });
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
