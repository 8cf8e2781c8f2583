import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { connectForCommand } from '../src/db/connect';
import { openDatabase } from '../src/db/database';
import { loadPglite, PGLITE_PACKAGES } from '../src/db/legacy-pglite';
import { insertApiLead, insertWebsiteLead } from './support/leads';
import { tempDir } from './support/test-db';

// An embedded database made by an earlier version (PGlite in DATA_DIR/pgdata) is carried over into the
// embedded PostgreSQL on the first start of this version; the old folder is kept, renamed (ADR 050).

const dataDir = tempDir('uf-legacy-');
const LAST_PGLITE_MIGRATION = 'Migration20261122040000_consent_partner';
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function makeLegacyFolder() {
  const db = await PGlite.create(path.join(dataDir, 'pgdata'));
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 4 });
  await server.start();
  const port = Number(server.getServerConn().split(':').pop());
  const app = await openDatabase({
    url: `postgresql://postgres:postgres@127.0.0.1:${port}/postgres?sslmode=disable`,
    poolMax: 2,
  });
  try {
    // The schema as the last PGlite version left it: the migrations up to then (PGlite has no pg_trgm).
    await app.orm.migrator.up({ to: LAST_PGLITE_MIGRATION });
    await insertWebsiteLead(app.pool, { firstName: 'Legacy', lastName: "O'Brien" });
    await insertApiLead(app.pool, { city: 'Reno' });
  } finally {
    await app.close();
    await server.stop();
    await db.close();
  }
}

describe('the earlier embedded database (PGlite)', () => {
  it('is imported once on the first start, its folder kept and its data saved as a backup', async () => {
    await makeLegacyFolder();
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    const first = await connectForCommand(config);
    try {
      const { rows } = await first.db.pool.query('select first_name, last_name from website_lead');
      expect(rows).toEqual([{ first_name: 'Legacy', last_name: "O'Brien" }]);
      expect((await first.db.pool.query('select city from api_lead')).rows).toEqual([{ city: 'Reno' }]);
    } finally {
      await first.close();
    }
    expect(existsSync(path.join(dataDir, 'pgdata'))).toBe(false);
    expect(readdirSync(dataDir).some((f) => f.startsWith('pgdata.imported-'))).toBe(true);
    expect(readdirSync(config.backupDir).some((f) => f.startsWith('uf-pglite-import-'))).toBe(true);

    // A second start does not import again (no duplicates).
    const second = await connectForCommand(config);
    try {
      expect(Number((await second.db.pool.query('select count(*) from website_lead')).rows[0].count)).toBe(1);
    } finally {
      await second.close();
    }
  });

  it('fetches PGlite on demand where the install has none (it is not a production dependency)', async () => {
    // The versions fetched are the catalog's, the ones the import was tested with.
    const catalog = readFileSync(path.join(import.meta.dirname, '../../../pnpm-workspace.yaml'), 'utf8');
    for (const [name, version] of Object.entries(PGLITE_PACKAGES)) {
      expect(catalog).toContain(`"${name}": ${version}\n`);
    }
    const server = JSON.parse(readFileSync(path.join(import.meta.dirname, '../package.json'), 'utf8'));
    expect(Object.keys(server.dependencies)).not.toContain('@electric-sql/pglite');

    const toolsDir = path.join(dataDir, '.pglite-fetch-test');
    const fetched = await loadPglite(toolsDir, 'always');
    expect(existsSync(path.join(toolsDir, 'node_modules/@electric-sql/pglite/package.json'))).toBe(true);
    expect(fetched.PGlite).not.toBe(PGlite); // the fetched copy, not the install's
    const db = await fetched.PGlite.create();
    try {
      expect((await db.query<{ n: number }>('select 40 + 2 as n')).rows).toEqual([{ n: 42 }]);
    } finally {
      await db.close();
    }
  }, 180_000);
});
