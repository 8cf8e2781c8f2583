import { existsSync } from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { SERVER_ENTRY, startBuiltServer } from './support/built-server';
import { createScratchDatabase } from './support/database';

// Starts the built server (packages/server/dist) once for the end-to-end run, on a fresh database:
// a new database in DATABASE_URL's server when given, else the server's embedded PostgreSQL in a temp folder.

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    e2eDatabaseUrl: string | null;
  }
}

export default async function setup(project: TestProject) {
  const webIndex = path.resolve(import.meta.dirname, '../packages/web/dist/index.html');
  if (!existsSync(SERVER_ENTRY) || !existsSync(webIndex)) {
    throw new Error(
      'Build first: the end-to-end tests run against packages/server/dist and packages/web/dist.',
    );
  }
  const database = await createScratchDatabase('uf_e2e');
  const databaseUrl = database?.url ?? null;
  const server = await startBuiltServer(
    {
      DATABASE_URL: databaseUrl ?? '',
      ADMIN_USERNAME: 'e2e-admin',
      ADMIN_PASSWORD: 'e2e-password-123',
      // The analytics tests send visitors' countries the way Cloudflare would (issue 5).
      ANALYTICS_COUNTRY_HEADER: 'CF-IPCountry',
      // The business clock the admin shows (issue 26): e2e browsers in other zones see New York times.
      TIME_ZONE: 'America/New_York',
      // Every e2e test signs in from 127.0.0.1, more than the 30 attempts per address and 15 minutes an
      // office would need (the per-address limit itself is tested in sign-in-limits.test.ts).
      ADMIN_SIGN_IN_LIMIT_PER_ADDRESS: '10000',
      // The webhooks screen's test posts to a receiver on 127.0.0.1 (issue 24).
      WEBHOOKS_ALLOW_PRIVATE_URLS: 'true',
      // Visitors whose leads a test expects delivered come "through the proxy", each from an address of its
      // own (X-Forwarded-For, support/visitor.ts): every browser of the run is 127.0.0.1, and lead quality
      // holds a fourth lead from one address in 10 minutes (issue 33).
      TRUST_PROXY: '127.0.0.1',
    },
    'inherit',
  );
  const baseUrl = server.url;
  console.info(
    `[e2e] server at ${baseUrl} on ${database ? 'PostgreSQL from DATABASE_URL' : 'the embedded PostgreSQL'}`,
  );
  project.provide('baseUrl', baseUrl);
  project.provide('e2eDatabaseUrl', databaseUrl);

  return async () => {
    await server.stop();
    await database?.drop();
  };
}
