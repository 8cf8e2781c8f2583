import { type ChildProcess, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { seedAdmin, signIn } from '../support/admin';
import { spawnTracked } from '../support/child-processes';
import { leadBody } from '../support/fixtures';
import { runCli } from '../support/server-process';
import { startTestApp, type TestApp } from '../support/test-app';
import { createTestDatabase, type TestDatabase } from '../support/test-db';

// The compose stack's backup sidecar (infra/backup/backup.sh), run natively against this machine's
// PostgreSQL: scheduled pg_dumps, retention, and the documented restore command bringing a dump back.
// It runs this machine's PostgreSQL client tools (the compose stack's PostgreSQL 15), which refuse the
// embedded PostgreSQL 18: it is skipped when the suite runs on the embedded database.

const root = path.resolve(import.meta.dirname, '../../../..');
const script = path.join(root, 'infra/backup/backup.sh');
const KEEP = 2;

function runOnce(command: string, env: Record<string, string>) {
  return spawnSync('sh', [script, command], { env: { ...process.env, ...env }, encoding: 'utf8' });
}

/** Every table of the public schema with a digest of its rows, in a stable order. */
async function snapshot(url: string): Promise<Record<string, { rows: number; digest: string }>> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows: tables } = await c.query<{ name: string }>(
      "select tablename as name from pg_tables where schemaname = 'public' order by tablename",
    );
    const out: Record<string, { rows: number; digest: string }> = {};
    for (const { name } of tables) {
      const { rows } = await c.query<{ rows: number; digest: string }>(
        `select count(*)::int as rows, md5(coalesce(string_agg(t::text, E'\\n' order by t::text), '')) as digest
         from "${name}" t`,
      );
      if (rows[0]) out[name] = rows[0];
    }
    return out;
  } finally {
    await c.end();
  }
}

describe.skipIf(inject('testDb').kind === 'embedded')('backup sidecar, run natively', () => {
  let t: TestApp;
  let restored: TestDatabase;
  let dir: string;
  let sidecar: ChildProcess | undefined;
  let log = '';

  beforeAll(async () => {
    t = await startTestApp();
    // Something in most tables: leads, an admin, a session, audit rows, analytics.
    for (let i = 0; i < 5; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/api/submit-search', payload: leadBody() });
      expect(res.statusCode).toBe(200);
    }
    await seedAdmin(t.app);
    await signIn(t.app);
    dir = mkdtempSync(path.join(os.tmpdir(), 'uf-backups-'));
    restored = await createTestDatabase();
  });

  afterAll(async () => {
    sidecar?.kill('SIGKILL');
    await t?.close();
    await restored?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('dumps on its schedule, keeps only the newest BACKUP_KEEP, and stops cleanly on SIGTERM', async () => {
    // A backup made from the dashboard shares the folder; retention must leave it alone.
    writeFileSync(path.join(dir, 'uf-backup-2026-01-01T00-00-00-000Z-abcd1234.dump'), 'made by an admin');
    sidecar = spawnTracked('sh', [script], {
      env: {
        ...process.env,
        DATABASE_URL: t.db.url,
        BACKUP_DIR: dir,
        BACKUP_INTERVAL_SECONDS: '1',
        BACKUP_KEEP: String(KEEP),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => sidecar?.once('exit', resolve));
    sidecar.stdout?.on('data', (d) => {
      log += d;
    });
    sidecar.stderr?.on('data', (d) => {
      log += d;
    });
    const written = () => [...log.matchAll(/wrote \S+\/(scheduled-\d{8}T\d{6}Z\.dump)/g)].map((m) => m[1]);
    const deadline = Date.now() + 30_000;
    while (written().length < KEEP + 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(written().length, log).toBeGreaterThanOrEqual(KEEP + 2);

    sidecar.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(log).toContain(`every 1s into ${dir}, keeping the newest ${KEEP}`);
    const names = written();
    const files = readdirSync(dir).sort();
    expect(files).toEqual(['uf-backup-2026-01-01T00-00-00-000Z-abcd1234.dump', ...names.slice(-KEEP)].sort());
    expect(runOnce('health', { BACKUP_DIR: dir, BACKUP_INTERVAL_SECONDS: '60' }).status).toBe(0);
  }, 60_000);

  it('restores the newest dump with the documented restore command: identical rows', async () => {
    const newest = readdirSync(dir)
      .filter((f) => f.startsWith('scheduled-'))
      .sort()
      .at(-1);
    expect(newest).toBeDefined();
    const r = runCli(['restore', path.join(dir, newest ?? ''), '--yes'], { DATABASE_URL: restored.url });
    expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);

    const [before, after] = await Promise.all([snapshot(t.db.url), snapshot(restored.url)]);
    expect(Object.keys(after)).toEqual(Object.keys(before));
    expect(after).toEqual(before);
    expect(before.website_lead?.rows).toBe(5);
    expect(before.admin_session?.rows).toBe(1);
  }, 120_000);

  it("connects through libpq's variables, as the compose file configures it", () => {
    const url = new URL(t.db.url);
    const one = mkdtempSync(path.join(os.tmpdir(), 'uf-backups-pgenv-'));
    try {
      const env: Record<string, string> = {
        PGHOST: url.hostname,
        PGPORT: url.port || '5432',
        PGUSER: decodeURIComponent(url.username),
        PGPASSWORD: decodeURIComponent(url.password),
        PGDATABASE: url.pathname.slice(1),
        BACKUP_DIR: one,
      };
      const r = spawnSync('sh', [script, 'once'], {
        env: {
          ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'DATABASE_URL')),
          ...env,
        },
        encoding: 'utf8',
      });
      expect(r.status, r.stderr).toBe(0);
      expect(readdirSync(one)).toEqual([expect.stringMatching(/^scheduled-\d{8}T\d{6}Z\.dump$/)]);
    } finally {
      rmSync(one, { recursive: true, force: true });
    }
  });

  it('reports a failed dump, keeps the good ones and exits non-zero when run once', () => {
    const before = readdirSync(dir).sort();
    const r = runOnce('once', {
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none',
      BACKUP_DIR: dir,
      BACKUP_KEEP: String(KEEP),
    });
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('pg_dump failed; the previous dumps are kept');
    expect(readdirSync(dir).sort()).toEqual(before);
  });

  it('refuses a bad schedule and reports an empty or stale backup folder as unhealthy', () => {
    const bad = runOnce('once', { BACKUP_DIR: dir, BACKUP_INTERVAL_SECONDS: 'daily' });
    expect(bad.status).toBe(2);
    expect(bad.stdout).toContain(
      "BACKUP_INTERVAL_SECONDS must be a whole number of seconds > 0 (got 'daily')",
    );
    const empty = mkdtempSync(path.join(os.tmpdir(), 'uf-backups-empty-'));
    try {
      const r = runOnce('health', { BACKUP_DIR: empty });
      expect(r.status).toBe(1);
      expect(r.stdout).toContain('no scheduled dump yet');
      writeFileSync(path.join(empty, 'scheduled-20200101T000000Z.dump'), 'old');
      spawnSync('touch', ['-d', '2020-01-01', path.join(empty, 'scheduled-20200101T000000Z.dump')]);
      const stale = runOnce('health', { BACKUP_DIR: empty, BACKUP_INTERVAL_SECONDS: '86400' });
      expect(stale.status).toBe(1);
      expect(stale.stdout).toMatch(/is \d+s old \(limit 173400s\)/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
