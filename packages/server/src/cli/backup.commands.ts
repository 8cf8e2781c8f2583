import { existsSync } from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import { recordAudit } from '../admin/audit.service';
import { createBackup, detectBackupKind, restorePostgres } from '../backups/backup.service';
import { pruneAppBackups } from '../backups/backup-files.service';
import { restoreLogicalBackup } from '../backups/logical-backup';
import { type CliCommand, requirePositional, UsageError } from './command';

function operator(): string {
  try {
    return `cli:${userInfo().username}`;
  } catch {
    return 'cli';
  }
}

export const backupCommands: CliCommand[] = [
  {
    name: 'backup',
    description: 'Write a restorable backup of the configured database to BACKUP_DIR and print its path.',
    async run(ctx) {
      const { filepath } = await ctx.withDatabase(async ({ db, url, embedded }) => {
        const result = await createBackup(
          embedded ? { kind: 'embedded', pool: db.pool } : { kind: 'postgres', url },
          ctx.config.backupDir,
        );
        const pruned = await pruneAppBackups(ctx.config.backupDir, ctx.config.backupKeep);
        await recordAudit(db.pool, {
          actor: operator(),
          action: 'database.backup',
          detail: pruned.length ? { filepath: result.filepath, pruned } : { filepath: result.filepath },
        });
        return result;
      });
      ctx.out(filepath);
    },
  },
  {
    name: 'restore',
    args: ['<file>'],
    options: { yes: { type: 'boolean', description: 'Confirm: the current data is replaced.' } },
    description:
      'Replace the configured database (DATABASE_URL, or the embedded one in DATA_DIR) with a backup. Stop the server first.',
    async run(ctx, args) {
      const file = path.resolve(requirePositional(args, 0, 'file'));
      if (!existsSync(file)) throw new UsageError(`no such file: ${file}`);
      const target = ctx.config.databaseUrl
        ? `the PostgreSQL database in DATABASE_URL`
        : `the embedded database in ${ctx.config.dataDir}`;
      if (args.flags.yes !== true) {
        throw new UsageError(
          `restore replaces everything in ${target} with the backup; add --yes to confirm`,
        );
      }
      const kind = await detectBackupKind(file);
      if (kind === 'pglite-tar') {
        throw new UsageError(
          'This is a data-folder backup of the earlier embedded database (PGlite). Its data folder is ' +
            'imported automatically the first time the server starts on it; restore this file with a ' +
            'version from before ADR 050 if you need it.',
        );
      }
      if (kind === 'logical') {
        // Migrate first (withDatabase does), then load the data in one transaction. The embedded
        // database's lock proves no server has it open.
        const { tables, rows } = await ctx.withDatabase(({ db }) => restoreLogicalBackup(db.pool, file));
        ctx.out(`Restored ${file} into ${target} (${rows} rows in ${tables} tables).`);
        return;
      }
      if (!ctx.config.databaseUrl) {
        throw new UsageError(
          'This is a pg_dump backup of a PostgreSQL server; restore it with DATABASE_URL set to that kind of server.',
        );
      }
      await restorePostgres(ctx.config.databaseUrl, file);
      ctx.out(`Restored ${file} into ${target}.`);
    },
  },
];
