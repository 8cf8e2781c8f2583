import { existsSync } from 'node:fs';
import type { TestProject } from 'vitest/node';

// Picks the PostgreSQL the integration tests run against, once per run, and says which:
// DATABASE_URL when given → testcontainers when a Docker engine answers → embedded PGlite.

export type TestDbInfo = { kind: 'database-url' | 'testcontainers' | 'pglite'; adminUrl: string | null };

declare module 'vitest' {
  export interface ProvidedContext {
    testDb: TestDbInfo;
  }
}

function dockerLooksAvailable(): boolean {
  // Cheap check first: testcontainers would otherwise spend time probing strategies.
  return Boolean(process.env.DOCKER_HOST) || existsSync('/var/run/docker.sock');
}

export default async function setup(project: TestProject) {
  let info: TestDbInfo;
  let teardown: (() => Promise<void>) | undefined;
  if (process.env.DATABASE_URL) {
    info = { kind: 'database-url', adminUrl: process.env.DATABASE_URL };
  } else {
    let container: { getConnectionUri(): string; stop(): Promise<unknown> } | undefined;
    if (dockerLooksAvailable()) {
      try {
        const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
        container = await new PostgreSqlContainer('postgres:15-alpine').start();
      } catch (err) {
        console.warn(`[tests] no usable Docker engine (${(err as Error).message.split('\n')[0]})`);
      }
    }
    if (container) {
      const started = container;
      info = { kind: 'testcontainers', adminUrl: started.getConnectionUri() };
      teardown = async () => {
        await started.stop();
      };
    } else {
      info = { kind: 'pglite', adminUrl: null };
    }
  }
  const label = {
    'database-url': 'PostgreSQL from DATABASE_URL',
    testcontainers: 'PostgreSQL in a testcontainers container',
    pglite: 'embedded PGlite (last resort: set DATABASE_URL to test on a real PostgreSQL)',
  }[info.kind];
  console.info(`[tests] integration database: ${label}`);
  project.provide('testDb', info);
  return teardown;
}
