import { existsSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { SERVER_ENTRY, startBuiltServer } from './support/built-server';

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
  const adminUrl = process.env.DATABASE_URL;
  let databaseUrl: string | null = null;
  let dbName: string | null = null;
  if (adminUrl) {
    dbName = `uf_e2e_${Date.now().toString(36)}`;
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    await c.query(`create database ${dbName}`);
    await c.end();
    const u = new URL(adminUrl);
    u.pathname = `/${dbName}`;
    databaseUrl = u.toString();
  }
  const server = await startBuiltServer(
    {
      DATABASE_URL: databaseUrl ?? '',
      ADMIN_USERNAME: 'e2e-admin',
      ADMIN_PASSWORD: 'e2e-password-123',
      // The analytics tests send visitors' countries the way Cloudflare would (issue 5).
      ANALYTICS_COUNTRY_HEADER: 'CF-IPCountry',
      // The business clock the admin shows (issue 26): e2e browsers in other zones see New York times.
      TIME_ZONE: 'America/New_York',
    },
    'inherit',
  );
  const baseUrl = server.url;
  console.info(
    `[e2e] server at ${baseUrl} on ${adminUrl ? 'PostgreSQL from DATABASE_URL' : 'the embedded PostgreSQL'}`,
  );
  project.provide('baseUrl', baseUrl);
  project.provide('e2eDatabaseUrl', databaseUrl);

  return async () => {
    await server.stop();
    if (adminUrl && dbName) {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${dbName} with (force)`);
      await c.end();
    }
  };
}
