import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { link, mkdir, open, rm, unlink } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Pool } from 'pg';
import type { Actor } from '../leads/admin-leads.service';
import { recordAudit } from '../admin/audit.service';
import { pruneAppBackups } from './backup-files.service';
import { isLogicalBackup, writeLogicalBackup } from './logical-backup';

// Restorable database backups (ADR 010, ADR 050). Against PostgreSQL: pg_dump's custom format,
// restored with pg_restore + psql in one transaction. In the embedded mode, which has no client tools:
// a logical backup written through the app's own connection (logical-backup.ts), restored by the app.

export type BackupSource = { kind: 'postgres'; url: string } | { kind: 'embedded'; pool: Pool };

/** `pglite-tar`: a data-folder tarball of the embedded database before ADR 050 (PGlite). */
export type BackupKind = 'pg-custom' | 'pg-plain' | 'logical' | 'pglite-tar';

const EXTENSION: Record<'pg-custom' | 'logical', string> = {
  'pg-custom': '.dump',
  logical: '.sql.gz',
};

/** A connection URL without its password, plus the password for PGPASSWORD (never on a command line). */
function splitCredentials(url: string): { url: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  return { url: u.toString(), env: password ? { ...process.env, PGPASSWORD: password } : process.env };
}

type Tool = { child: ChildProcess; done: Promise<void> };

/** Copies `from` into `to` without ending `to` (more may follow); settles when `from` has ended. */
function pipeInto(from: Readable, to: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    from.once('end', resolve);
    from.once('error', reject);
    to.once('error', reject);
    from.pipe(to, { end: false });
  });
}

/** Starts a PostgreSQL client tool; `done` rejects with its stderr when it fails or is missing. */
function startTool(
  command: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv; stdout?: Writable; stdin?: Readable },
): Tool {
  const child = spawn(command, args, {
    env: options.env,
    stdio: [options.stdin ? 'pipe' : 'ignore', options.stdout ? 'pipe' : 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    stderr = (stderr + d).slice(-4000);
  });
  // Settled results, so an early pipe error is never an unhandled rejection.
  const copies: Promise<unknown>[] = [];
  if (options.stdout && child.stdout) {
    copies.push(pipeInto(child.stdout, options.stdout).catch((err: unknown) => err));
  }
  if (options.stdin && child.stdin) {
    copies.push(pipeline(options.stdin, child.stdin).catch((err: unknown) => err));
  }
  const done = new Promise<void>((resolve, reject) => {
    child.on('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'ENOENT'
          ? new Error(`${command} is not installed (install the PostgreSQL client tools)`)
          : err,
      ),
    );
    child.on('close', async (code, signal) => {
      const copyErrors = (await Promise.all(copies)).filter((e) => e instanceof Error);
      // The tool's own message explains a failure better than the broken pipe it causes.
      if (code !== 0) reject(new Error(`${command} failed (${signal ?? code}): ${stderr.trim()}`));
      else if (copyErrors[0]) reject(copyErrors[0]);
      else resolve();
    });
  });
  return { child, done };
}

function backupFileName(kind: keyof typeof EXTENSION, now: Date): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  return `uf-backup-${stamp}-${randomBytes(4).toString('hex')}${EXTENSION[kind]}`;
}

/**
 * Writes a backup into `dir` and returns its absolute path. The dump goes to a unique temporary file
 * first and is then hard-linked to its final name, which fails rather than overwrite: two backups can
 * never write one file, and a final name never holds a half-written dump.
 */
export async function createBackup(
  source: BackupSource,
  dir: string,
  now = new Date(),
): Promise<{ filepath: string }> {
  await mkdir(dir, { recursive: true });
  const kind = source.kind === 'postgres' ? 'pg-custom' : 'logical';
  const filepath = path.resolve(dir, backupFileName(kind, now));
  const partial = `${filepath}.partial`;
  // 'wx' claims the name: it fails if another backup (or anything else) already has it.
  const file = await open(partial, 'wx', 0o600);
  let isOpen = true;
  try {
    if (source.kind === 'postgres') {
      await file.close();
      isOpen = false;
      const { url, env } = splitCredentials(source.url);
      // pg_dump writes (and fsyncs) the file we created.
      await startTool(
        'pg_dump',
        ['--format=custom', '--no-owner', '--no-acl', `--file=${partial}`, `--dbname=${url}`],
        { env },
      ).done;
    } else {
      await file.close();
      isOpen = false;
      await writeLogicalBackup(source.pool, createWriteStream(partial, { flags: 'r+' }), now);
      const written = await open(partial, 'r+');
      await written.sync().finally(() => written.close());
    }
    await link(partial, filepath);
    await unlink(partial);
  } catch (err) {
    if (isOpen) await file.close().catch(() => {});
    await rm(partial, { force: true });
    throw err;
  }
  return { filepath };
}

/**
 * POST /api/admin/backup: a backup in BACKUP_DIR, then the app's backups beyond the newest `keep`
 * (BACKUP_KEEP) deleted; recorded in the audit log with its path (and what was pruned).
 */
export async function backupDatabase(
  pool: Pool,
  source: BackupSource,
  dir: string,
  actor: Actor,
  keep: number,
) {
  const result = await createBackup(source, dir);
  const pruned = await pruneAppBackups(dir, keep);
  await recordAudit(pool, {
    actor: actor.username,
    action: 'database.backup',
    detail: pruned.length ? { filepath: result.filepath, pruned } : { filepath: result.filepath },
    ipAddress: actor.ipAddress,
  });
  return result;
}

/** What kind of backup a file is, from its first bytes. */
export async function detectBackupKind(file: string): Promise<BackupKind> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(5);
    await handle.read(head, 0, 5, 0);
    if (head.toString('latin1') === 'PGDMP') return 'pg-custom';
    if (head[0] === 0x1f && head[1] === 0x8b) return (await isLogicalBackup(file)) ? 'logical' : 'pglite-tar';
    return 'pg-plain';
  } finally {
    await handle.close();
  }
}

// The dump recreates every object of the public schema; starting from an empty schema means the
// database ends up exactly as backed up (no tables left over from newer migrations).
const RESET_SCHEMA = 'drop schema if exists public cascade;\ncreate schema public;\n';

/**
 * Replaces the contents of the PostgreSQL database at `url` with a pg_dump backup (custom or plain
 * format), in one transaction: on any error nothing changes.
 */
export async function restorePostgres(url: string, file: string): Promise<void> {
  const kind = await detectBackupKind(file);
  if (kind === 'logical' || kind === 'pglite-tar')
    throw new Error(`restorePostgres cannot restore a ${kind} backup`);
  const { url: dbUrl, env } = splitCredentials(url);
  const script = new PassThrough();
  const psql = startTool(
    'psql',
    ['--no-psqlrc', '--quiet', '--single-transaction', '--set=ON_ERROR_STOP=1', `--dbname=${dbUrl}`],
    { env: { ...env, PGOPTIONS: '--client-min-messages=warning' }, stdin: script },
  );
  script.write(RESET_SCHEMA);
  try {
    if (kind === 'pg-custom') {
      await startTool('pg_restore', ['--no-owner', '--no-acl', '--file=-', file], { env, stdout: script })
        .done;
    } else {
      await pipeInto(createReadStream(file), script);
    }
  } catch (err) {
    // When psql stopped first (an SQL error), its message is the real cause of the broken pipe.
    const psqlStoppedFirst = psql.child.exitCode !== null;
    // psql commits what it has read when its input ends: kill it instead, so the transaction rolls back.
    psql.child.kill('SIGKILL');
    script.destroy();
    const psqlError = await psql.done.then(
      () => null,
      (e: unknown) => e,
    );
    throw psqlStoppedFirst && psqlError ? psqlError : err;
  }
  script.end();
  await psql.done;
}
