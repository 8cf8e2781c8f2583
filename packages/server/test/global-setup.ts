import { existsSync, rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { startEmbeddedDatabase } from '../src/db/embedded';
import { tempDir } from './support/test-db';

// Picks the PostgreSQL the integration tests run against, once per run, and says which:
// DATABASE_URL when given → testcontainers when a Docker engine answers → the app's own embedded
// PostgreSQL (the `npm start` default) in a temporary folder. Each test file gets its own database.

export type TestDbInfo = { kind: 'database-url' | 'testcontainers' | 'embedded'; adminUrl: string };

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
      const dataDir = tempDir('uf-test-embedded-');
      const embedded = await startEmbeddedDatabase(dataDir);
      info = { kind: 'embedded', adminUrl: embedded.adminUrl };
      teardown = async () => {
        await embedded.close();
        rmSync(dataDir, { recursive: true, force: true });
      };
    }
  }
  const label = {
    'database-url': 'PostgreSQL from DATABASE_URL',
    testcontainers: 'PostgreSQL in a testcontainers container',
    embedded: 'the embedded PostgreSQL (no DATABASE_URL)',
  }[info.kind];
  console.info(`[tests] integration database: ${label}`);
  project.provide('testDb', info);
  return teardown;
}
