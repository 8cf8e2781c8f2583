import { createReadStream } from 'node:fs';
import { lstat, readdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { ERROR_CODES } from '@uf/shared/errors';
import type { Pool } from 'pg';
import { AppError } from '../errors';
import type { Actor } from '../leads/admin-leads.service';
import { recordAudit } from '../admin/audit.service';

// The backups in BACKUP_DIR as files an admin can list, download and delete (issue 26, ADR 060): the
// app's own (`uf-backup-….dump` / `.sql.gz`) and the compose sidecar's (`scheduled-….dump`), which share
// the folder. A name is only ever looked up inside that folder: anything that is not a plain backup
// file name of a regular file there (a path, `..`, a symlink, a folder, a name that is not a backup)
// is answered 404, like a name that does not exist — never with a path.

export type BackupFile = {
  name: string;
  /** When the file was last written (its modification time), ISO 8601 UTC. */
  createdAt: string;
  sizeBytes: number;
  /** `app`: made by the app (dashboard, CLI); `scheduled`: the backup sidecar's; `other`. */
  source: 'app' | 'scheduled' | 'other';
};

/** A backup's file name: no separators, no leading dot, a backup extension. */
const BACKUP_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}\.(?:dump|sql\.gz|sql)$/;
const APP_PREFIX = 'uf-backup-';

export const isBackupName = (name: string) => BACKUP_NAME.test(name) && !name.includes('..');

const sourceOf = (name: string): BackupFile['source'] =>
  name.startsWith(APP_PREFIX) ? 'app' : name.startsWith('scheduled-') ? 'scheduled' : 'other';

const notFound = () => new AppError(ERROR_CODES.notFound, 'Backup not found');

/** Every backup file in `dir`, newest first (a missing folder is an empty list). */
export async function listBackups(dir: string): Promise<BackupFile[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const files: (BackupFile & { mtimeMs: number })[] = [];
  for (const name of names.filter(isBackupName)) {
    const stat = await lstat(path.join(dir, name)).catch(() => null);
    // Regular files only: a symlink could point anywhere on the machine.
    if (!stat?.isFile()) continue;
    files.push({
      name,
      createdAt: stat.mtime.toISOString(),
      sizeBytes: stat.size,
      source: sourceOf(name),
      mtimeMs: stat.mtimeMs,
    });
  }
  files.sort((a, b) => b.mtimeMs - a.mtimeMs || b.name.localeCompare(a.name));
  return files.map(({ mtimeMs: _, ...file }) => file);
}

/** The absolute path and size of a backup by name, or 404. */
async function resolveBackup(dir: string, name: string): Promise<{ file: string; size: number }> {
  if (!isBackupName(name) || path.basename(name) !== name) throw notFound();
  const file = path.join(dir, name);
  const stat = await lstat(file).catch(() => null);
  if (!stat?.isFile()) throw notFound();
  return { file, size: stat.size };
}

/** GET /api/admin/backups/{name}: the file as a stream (recorded in the audit log). */
export async function openBackup(
  pool: Pool,
  dir: string,
  name: string,
  actor: Actor,
): Promise<{ stream: Readable; sizeBytes: number }> {
  const { file, size } = await resolveBackup(dir, name);
  const stream = createReadStream(file);
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', reject);
  }).catch(() => {
    throw notFound();
  });
  await recordAudit(pool, {
    actor: actor.username,
    action: 'database.backup_download',
    detail: { name },
    ipAddress: actor.ipAddress,
  });
  return { stream, sizeBytes: size };
}

/** DELETE /api/admin/backups/{name}. */
export async function deleteBackup(pool: Pool, dir: string, name: string, actor: Actor) {
  const { file } = await resolveBackup(dir, name);
  try {
    await unlink(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw notFound();
    throw err;
  }
  await recordAudit(pool, {
    actor: actor.username,
    action: 'database.backup_delete',
    detail: { name },
    ipAddress: actor.ipAddress,
  });
  return { name, deleted: true as const };
}

/**
 * After a backup: deletes the app's own backups beyond the newest `keep` (the sidecar prunes its own
 * files; anything else in the folder is left alone). Returns the names deleted.
 */
export async function pruneAppBackups(dir: string, keep: number): Promise<string[]> {
  const own = (await listBackups(dir)).filter((f) => f.source === 'app');
  const old = own.slice(keep).map((f) => f.name);
  for (const name of old) await unlink(path.join(dir, name)).catch(() => {});
  return old;
}
