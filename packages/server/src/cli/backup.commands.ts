import { existsSync, mkdirSync } from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import { takeLock } from '../db/embedded';
import { recordAudit } from '../services/audit.service';
import { createBackup, restoreEmbedded, restorePostgres } from '../services/backup.service';
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
    usage: 'backup',
    description: 'Write a restorable backup of the configured database to BACKUP_DIR and print its path.',
    async run(ctx) {
      const { filepath } = await ctx.withDatabase(async ({ db, url, embedded }) => {
        const result = await createBackup(
          embedded ? { kind: 'embedded', dumpDataDir: embedded.dumpDataDir } : { kind: 'postgres', url },
          ctx.config.backupDir,
        );
        await recordAudit(db.pool, {
          actor: operator(),
          action: 'database.backup',
          detail: { filepath: result.filepath },
        });
        return result;
      });
      ctx.out(filepath);
    },
  },
  {
    name: 'restore',
    usage: 'restore <file> --yes',
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
      if (ctx.config.databaseUrl) {
        await restorePostgres(ctx.config.databaseUrl, file);
        ctx.out(`Restored ${file} into ${target}.`);
        return;
      }
      // The lock proves no server (or other command) has the embedded database open.
      mkdirSync(ctx.config.dataDir, { recursive: true });
      const release = takeLock(path.join(ctx.config.dataDir, 'pgdata.lock'));
      try {
        const { previous } = await restoreEmbedded(ctx.config.dataDir, file);
        ctx.out(`Restored ${file} into ${target}.`);
        if (previous) ctx.out(`The previous data folder was kept as ${previous} (delete it when done).`);
      } finally {
        release();
      }
    },
  },
];
