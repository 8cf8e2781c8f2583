import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../src/app';
import { backupCommands } from '../src/cli/backup.commands';
import { createCliContext, parseArgs, UsageError } from '../src/cli/command';
import { loadConfig } from '../src/config';
import { startEmbeddedDatabase } from '../src/db/embedded';
import { seedAdmin, signIn } from './support/admin';
import { insertApiLead, insertWebsiteLead } from './support/leads';
import { startTestApp, type TestApp } from './support/test-app';
import { tempDir } from './support/test-db';

// Backups must restore: each test dumps a database with data in every table, restores it elsewhere and
// compares every row of every table.

const tmp = tempDir('uf-backup-test-');
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function snapshot(url: string): Promise<Record<string, unknown[]>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // The lead rollups are derived rows kept as deltas (ADR 055): equal data, folded the same way.
    await client.query(`do $$ begin
      if to_regprocedure('compact_lead_source_rollups()') is not null then perform compact_lead_source_rollups(); end if;
      if to_regprocedure('compact_lead_quality_rollups()') is not null then perform compact_lead_quality_rollups(); end if;
    end $$`);
    const { rows: tables } = await client.query<{ name: string }>(
      `select table_name as name from information_schema.tables
       where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
    );
    const out: Record<string, unknown[]> = {};
    for (const { name } of tables) {
      const { rows } = await client.query(`select to_jsonb(t) as row from "${name}" t order by t::text`);
      out[name] = rows.map((r) => r.row);
    }
    return out;
  } finally {
    await client.end();
  }
}

async function seed(pool: pg.Pool) {
  await insertWebsiteLead(pool, { firstName: 'Zoë', lastName: "O'Hara\nnew line", beneficiary: 'Estate' });
  await insertWebsiteLead(pool, { state: null, consentGiven: false });
  await insertApiLead(pool, { city: 'Tulsa' });
}

function cli(env: Record<string, string>) {
  const lines: string[] = [];
  const ctx = createCliContext(loadConfig({ LOG_LEVEL: 'silent', ...env }), (line) => lines.push(line));
  const run = async (...argv: string[]) => {
    const [name, ...rest] = argv;
    const command = backupCommands.find((c) => c.name === name);
    if (!command) throw new Error(`no command ${name}`);
    await command.run(ctx, parseArgs(command, rest));
  };
  return { run, lines };
}

const adminUrl = inject('testDb').adminUrl;

describe.runIf(inject('testDb').kind !== 'embedded')('PostgreSQL backup (pg_dump) and restore', () => {
  let t: TestApp;
  const backupDir = path.join(tmp, 'pg-backups');
  const fresh: string[] = [];

  async function freshDatabase(): Promise<string> {
    const name = `uf_restore_${randomBytes(5).toString('hex')}`;
    const c = new pg.Client({ connectionString: adminUrl ?? '' });
    await c.connect();
    await c.query(`create database ${name}`);
    await c.end();
    fresh.push(name);
    const u = new URL(adminUrl ?? '');
    u.pathname = `/${name}`;
    return u.toString();
  }

  beforeAll(async () => {
    t = await startTestApp({ BACKUP_DIR: backupDir });
    await seedAdmin(t.app);
    await seed(t.app.db.pool);
  });
  afterAll(async () => {
    await t?.close();
    const c = new pg.Client({ connectionString: adminUrl ?? '' });
    await c.connect();
    for (const name of fresh) await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  });

  it('POST /api/admin/backup writes a pg_dump file that restores to identical rows', async () => {
    const cookies = await signIn(t.app);
    // The backup's own audit entry and session touch come after the dump.
    const before = await snapshot(t.db.url);
    const res = await t.app.inject({ method: 'POST', url: '/api/admin/backup', cookies, payload: {} });
    expect(res.statusCode).toBe(200);
    const { filepath } = res.json() as { filepath: string };
    expect(path.dirname(filepath)).toBe(backupDir);
    expect(path.basename(filepath)).toMatch(/^uf-backup-.+\.dump$/);
    expect(readFileSync(filepath).subarray(0, 5).toString()).toBe('PGDMP');
    expect(before.website_lead).toHaveLength(2);
    expect(before.audit_log?.length).toBeGreaterThan(0);

    const target = await freshDatabase();
    const { run, lines } = cli({ DATABASE_URL: target });
    await run('restore', filepath, '--yes');
    expect(lines[0]).toContain('Restored');
    expect(await snapshot(target)).toEqual(before);

    const audit = await t.app.inject({ url: '/api/admin/audit-log', cookies });
    expect(audit.json()).toContainEqual(
      expect.objectContaining({ actor: 'alice', action: 'database.backup', detail: { filepath } }),
    );
  });

  it('restore replaces a database that already has other data and tables', async () => {
    const { run, lines } = cli({ DATABASE_URL: t.db.url, BACKUP_DIR: backupDir });
    const before = await snapshot(t.db.url);
    await run('backup');
    const filepath = lines[0] ?? '';
    const target = await freshDatabase();
    const c = new pg.Client({ connectionString: target });
    await c.connect();
    await c.query('create table leftover (x int); insert into leftover values (1)');
    await c.end();
    await cli({ DATABASE_URL: target }).run('restore', filepath, '--yes');
    expect(await snapshot(target)).toEqual(before);
  });

  it('changes nothing when the backup is damaged', async () => {
    const { run, lines } = cli({ DATABASE_URL: t.db.url, BACKUP_DIR: backupDir });
    await run('backup');
    const whole = readFileSync(lines[0] ?? '');
    const damaged = path.join(tmp, 'damaged.dump');
    await import('node:fs/promises').then((fs) =>
      fs.writeFile(damaged, whole.subarray(0, whole.length - 200)),
    );
    const target = await freshDatabase();
    const c = new pg.Client({ connectionString: target });
    await c.connect();
    await c.query('create table keep_me (x int); insert into keep_me values (42)');
    await c.end();
    const before = await snapshot(target);
    await expect(cli({ DATABASE_URL: target }).run('restore', damaged, '--yes')).rejects.toThrow(/failed/);
    expect(await snapshot(target)).toEqual(before);
  });

  it('never lets two backups write one file', async () => {
    const cookies = await signIn(t.app);
    const answers = await Promise.all(
      [1, 2, 3].map(() => t.app.inject({ method: 'POST', url: '/api/admin/backup', cookies, payload: {} })),
    );
    const paths = answers.map((r) => r.json().filepath as string);
    expect(new Set(paths).size).toBe(3);
    expect(readdirSync(backupDir).filter((f) => f.endsWith('.partial'))).toEqual([]);
  });

  it('refuses without --yes, and a backup of the other kind', async () => {
    const target = await freshDatabase();
    const { run } = cli({ DATABASE_URL: target });
    const file = path.join(backupDir, readdirSync(backupDir)[0] ?? '');
    await expect(run('restore', file)).rejects.toThrow(UsageError);
    const tarball = path.join(tmp, 'fake.tar.gz');
    rmSync(tarball, { force: true });
    await import('node:fs/promises').then((fs) => fs.writeFile(tarball, Buffer.from([0x1f, 0x8b, 0, 0])));
    await expect(run('restore', tarball, '--yes')).rejects.toThrow(/embedded database/);
  });
});

/** The rows of every table but the migrations log (its execution times belong to each database). */
async function dataSnapshot(url: string) {
  const { mikro_orm_migrations: migrations, ...data } = await snapshot(url);
  return { data, migrations: (migrations as { name: string }[]).map((m) => m.name) };
}

describe('embedded backup (logical) and restore', () => {
  it('backs up through the running app and restores into another data folder and into PostgreSQL with identical rows', async () => {
    const dataDir = path.join(tmp, 'embedded-a');
    const backupDir = path.join(tmp, 'embedded-backups');
    const embedded = await startEmbeddedDatabase(dataDir);
    let filepath = '';
    let before: Awaited<ReturnType<typeof dataSnapshot>> | undefined;
    try {
      const config = loadConfig({ LOG_LEVEL: 'silent', DB_POOL_MAX: '4', BACKUP_DIR: backupDir });
      const app = await buildApp(config, { databaseUrl: embedded.url, embedded });
      try {
        await seedAdmin(app);
        await seed(app.db.pool);
        const cookies = await signIn(app);
        before = await dataSnapshot(embedded.url);
        const res = await app.inject({ method: 'POST', url: '/api/admin/backup', cookies, payload: {} });
        expect(res.statusCode).toBe(200);
        filepath = res.json().filepath;
        expect(filepath).toMatch(/\.sql\.gz$/);
      } finally {
        await app.close();
      }
    } finally {
      await embedded.close();
    }
    expect(Object.values(before?.data ?? {}).flat().length).toBeGreaterThan(5);

    const restoredDir = path.join(tmp, 'embedded-b');
    const { run, lines } = cli({ DATA_DIR: restoredDir });
    await run('restore', filepath, '--yes');
    expect(lines[0]).toMatch(/^Restored .* rows in \d+ tables/);
    // Restoring again over the data replaces it (no duplicates, no key conflicts).
    await cli({ DATA_DIR: restoredDir }).run('restore', filepath, '--yes');
    const restored = await startEmbeddedDatabase(restoredDir);
    try {
      expect(await dataSnapshot(restored.url)).toEqual(before);
      // Identity sequences continue after the restored rows.
      const pool = new pg.Pool({ connectionString: restored.url });
      try {
        await insertApiLead(pool, { city: 'Boise' });
        await pool.query(`insert into audit_log (actor, action, detail) values ('t', 'test', '{}')`);
      } finally {
        await pool.end();
      }
    } finally {
      await restored.close();
    }

    // The same file moves an embedded site's data onto a PostgreSQL server (DATABASE_URL).
    const name = `uf_restore_${randomBytes(5).toString('hex')}`;
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    await c.query(`create database ${name}`);
    const target = new URL(adminUrl);
    target.pathname = `/${name}`;
    try {
      await cli({ DATABASE_URL: target.toString() }).run('restore', filepath, '--yes');
      expect(await dataSnapshot(target.toString())).toEqual(before);
    } finally {
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    }
  });

  it('refuses a file that is not a complete backup, and changes nothing', async () => {
    const dataDir = path.join(tmp, 'embedded-c');
    const backupDir = path.join(tmp, 'embedded-c-backups');
    const { run, lines } = cli({ DATA_DIR: dataDir, BACKUP_DIR: backupDir, LOG_LEVEL: 'silent' });
    const ctx = createCliContext(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), () => {});
    const countLeads = () =>
      ctx.withDatabase(async ({ db }) =>
        Number((await db.pool.query('select count(*) from api_lead')).rows[0].count),
      );
    await ctx.withDatabase(({ db }) => insertApiLead(db.pool, { city: 'Kept' }));
    await run('backup');
    const good = lines[0] ?? '';
    const { gunzipSync, gzipSync } = await import('node:zlib');
    const text = gunzipSync(readFileSync(good)).toString();
    // Cut inside the first table's data: the restore must fail and roll back.
    const cut = path.join(tmp, 'cut.sql.gz');
    const firstCopy = text.indexOf('FROM stdin;\n');
    await import('node:fs/promises').then((fs) =>
      fs.writeFile(cut, gzipSync(`${text.slice(0, firstCopy + 12)}garbage\tline`)),
    );
    await expect(run('restore', cut, '--yes')).rejects.toThrow();
    await expect(
      run('restore', path.join(tmp, 'cut.sql.gz').replace('cut', 'missing'), '--yes'),
    ).rejects.toThrow(/no such file/);
    expect(await countLeads()).toBe(1);
  });
});
