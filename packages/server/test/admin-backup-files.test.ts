import { mkdirSync, readdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { seedAdmin, signIn } from './support/admin';
import { startTestApp, type TestApp } from './support/test-app';
import { tempDir } from './support/test-db';

// Backups an admin can fetch (issue 26): the files of BACKUP_DIR — the app's and the sidecar's —
// listed newest first, downloaded as attachments, deleted; nothing outside the folder is ever reachable;
// BACKUP_KEEP prunes the app's own older backups after each new one.

const tmp = tempDir('uf-backup-files-');
const backupDir = path.join(tmp, 'backups');
const outside = path.join(tmp, 'secret.dump');
let t: TestApp;
let cookies: Record<string, string>;

/** A file in BACKUP_DIR written `minutesAgo` minutes ago. */
function place(name: string, content: string, minutesAgo: number) {
  const file = path.join(backupDir, name);
  writeFileSync(file, content);
  const at = new Date(Date.now() - minutesAgo * 60_000);
  utimesSync(file, at, at);
}

beforeAll(async () => {
  mkdirSync(backupDir, { recursive: true });
  t = await startTestApp({ BACKUP_DIR: backupDir, BACKUP_KEEP: '2' });
  await seedAdmin(t.app);
  cookies = await signIn(t.app);
  place('scheduled-20261120T030000Z.dump', 'PGDMP sidecar', 300);
  place('uf-backup-2026-11-21T10-00-00-000Z-aaaaaaaa.dump', 'PGDMP old app', 200);
  place('uf-backup-2026-11-22T10-00-00-000Z-bbbbbbbb.dump', 'PGDMP newer app', 100);
  place('notes.txt', 'not a backup', 50);
  place('uf-backup-x.dump.partial', 'half written', 10);
  writeFileSync(outside, 'outside the folder');
  symlinkSync(outside, path.join(backupDir, 'linked.dump'));
});
afterAll(async () => {
  await t?.close();
  rmSync(tmp, { recursive: true, force: true });
});

type Listed = { name: string; createdAt: string; sizeBytes: number; source: string };
const list = async () => {
  const res = await t.app.inject({ url: '/api/admin/backups', cookies });
  expect(res.statusCode).toBe(200);
  return res.json() as Listed[];
};

describe('GET /api/admin/backups', () => {
  it("lists the app's and the sidecar's backups, newest first, with time and size — nothing else", async () => {
    const listed = await list();
    expect(listed.map((b) => b.name)).toEqual([
      'uf-backup-2026-11-22T10-00-00-000Z-bbbbbbbb.dump',
      'uf-backup-2026-11-21T10-00-00-000Z-aaaaaaaa.dump',
      'scheduled-20261120T030000Z.dump',
    ]);
    expect(listed[0]).toMatchObject({ sizeBytes: 'PGDMP newer app'.length, source: 'app' });
    expect(listed[2]?.source).toBe('scheduled');
    expect(Date.parse(listed[0]?.createdAt ?? '')).toBeGreaterThan(Date.parse(listed[1]?.createdAt ?? ''));
  });

  it('needs a signed-in admin', async () => {
    expect((await t.app.inject({ url: '/api/admin/backups' })).statusCode).toBe(401);
    const name = 'scheduled-20261120T030000Z.dump';
    expect((await t.app.inject({ url: `/api/admin/backups/${name}` })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/admin/backups/${name}` })).statusCode).toBe(
      401,
    );
  });
});

describe('GET /api/admin/backups/{name}', () => {
  it('streams the file as an attachment and records the download', async () => {
    const name = 'scheduled-20261120T030000Z.dump';
    const res = await t.app.inject({ url: `/api/admin/backups/${name}`, cookies });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${name}"`);
    expect(res.body).toBe('PGDMP sidecar');
    const audit = (await t.app.inject({ url: '/api/admin/audit-log', cookies })).json();
    expect(audit).toContainEqual(
      expect.objectContaining({ actor: 'alice', action: 'database.backup_download', detail: { name } }),
    );
  });

  it('answers 404 for anything that is not a backup in the folder, never with a path', async () => {
    for (const probe of [
      '..%2Fsecret.dump',
      '%2E%2E%2Fsecret.dump',
      '..%5Csecret.dump',
      encodeURIComponent(outside),
      'linked.dump',
      'notes.txt',
      'uf-backup-x.dump.partial',
      'missing.dump',
      '.hidden.dump',
    ]) {
      for (const method of ['GET', 'DELETE'] as const) {
        const res = await t.app.inject({ method, url: `/api/admin/backups/${probe}`, cookies });
        expect(res.statusCode, `${method} ${probe}`).toBe(404);
        expect(res.json()).toEqual({ error: 'not_found', message: 'Backup not found' });
        expect(res.body).not.toContain(tmp);
      }
    }
    // Paths with more segments are no backup route at all.
    const deeper = await t.app.inject({ url: '/api/admin/backups/../../secret.dump', cookies });
    expect(deeper.body).not.toContain('outside the folder');
    expect(readdirSync(tmp)).toContain('secret.dump');
  });
});

describe('DELETE /api/admin/backups/{name}', () => {
  it('deletes the file, records it, and a second delete is 404', async () => {
    place('uf-backup-2026-11-19T10-00-00-000Z-cccccccc.sql.gz', 'gz', 400);
    const name = 'uf-backup-2026-11-19T10-00-00-000Z-cccccccc.sql.gz';
    expect((await list()).map((b) => b.name)).toContain(name);
    const res = await t.app.inject({ method: 'DELETE', url: `/api/admin/backups/${name}`, cookies });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ name, deleted: true });
    expect((await list()).map((b) => b.name)).not.toContain(name);
    const again = await t.app.inject({ method: 'DELETE', url: `/api/admin/backups/${name}`, cookies });
    expect(again.statusCode).toBe(404);
    const audit = (await t.app.inject({ url: '/api/admin/audit-log', cookies })).json();
    expect(audit).toContainEqual(
      expect.objectContaining({ action: 'database.backup_delete', detail: { name } }),
    );
  });
});

// The test app makes PostgreSQL backups with pg_dump, which cannot dump the embedded PostgreSQL 18 the
// tests run on without DATABASE_URL (the client is older): there the dashboard makes logical backups
// instead (admin-backup.test.ts), and the pruning after a backup is the same code for both kinds.
describe.runIf(inject('testDb').kind !== 'embedded')('BACKUP_KEEP', () => {
  it("keeps the newest BACKUP_KEEP of the app's backups after a backup; the sidecar's are left alone", async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/admin/backup', cookies, payload: {} });
    expect(res.statusCode).toBe(200);
    const made = path.basename((res.json() as { filepath: string }).filepath);
    const names = (await list()).map((b) => b.name);
    // BACKUP_KEEP=2: the new one and the newer of the two older app backups.
    expect(names).toEqual([
      made,
      'uf-backup-2026-11-22T10-00-00-000Z-bbbbbbbb.dump',
      'scheduled-20261120T030000Z.dump',
    ]);
    // The new backup is listed and downloads whole.
    const file = await t.app.inject({ url: `/api/admin/backups/${made}`, cookies });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.length).toBe((await list())[0]?.sizeBytes);
    const audit = (await t.app.inject({ url: '/api/admin/audit-log', cookies })).json();
    expect(audit).toContainEqual(
      expect.objectContaining({
        action: 'database.backup',
        detail: expect.objectContaining({ pruned: ['uf-backup-2026-11-21T10-00-00-000Z-aaaaaaaa.dump'] }),
      }),
    );
  });
});
