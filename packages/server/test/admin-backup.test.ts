import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
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

// Backups must restore: each test dumps a database with data in every table, restores it elsewhere and
// compares every row of every table.

const tmp = mkdtempSync(path.join(os.tmpdir(), 'uf-backup-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function snapshot(url: string): Promise<Record<string, unknown[]>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
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
    await command.run(ctx, parseArgs(rest));
  };
  return { run, lines };
}

const adminUrl = inject('testDb').adminUrl;

describe.runIf(adminUrl)('PostgreSQL backup (pg_dump) and restore', () => {
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

describe('embedded (PGlite) backup and restore', () => {
  it('backs up through the running app and restores into another data folder with identical rows', async () => {
    const dataDir = path.join(tmp, 'embedded-a');
    const backupDir = path.join(tmp, 'embedded-backups');
    const embedded = await startEmbeddedDatabase(dataDir);
    let filepath = '';
    let before: Record<string, unknown[]> = {};
    try {
      const config = loadConfig({ LOG_LEVEL: 'silent', DB_POOL_MAX: '4', BACKUP_DIR: backupDir });
      const app = await buildApp(config, { databaseUrl: embedded.url, embedded });
      try {
        await seedAdmin(app);
        await seed(app.db.pool);
        const cookies = await signIn(app);
        before = await snapshot(embedded.url);
        const res = await app.inject({ method: 'POST', url: '/api/admin/backup', cookies, payload: {} });
        expect(res.statusCode).toBe(200);
        filepath = res.json().filepath;
        expect(filepath).toMatch(/\.tar\.gz$/);
      } finally {
        await app.close();
      }
    } finally {
      await embedded.close();
    }

    const restoredDir = path.join(tmp, 'embedded-b');
    const { run, lines } = cli({ DATA_DIR: restoredDir });
    await run('restore', filepath, '--yes');
    expect(lines[0]).toContain('Restored');
    const restored = await startEmbeddedDatabase(restoredDir);
    try {
      expect(await snapshot(restored.url)).toEqual(before);
    } finally {
      await restored.close();
    }
    // Restoring over existing data keeps the old folder aside.
    const again = cli({ DATA_DIR: restoredDir });
    await again.run('restore', filepath, '--yes');
    expect(again.lines[1]).toMatch(/pgdata\.before-restore-/);
  });
});
