import { adminCommands } from './cli/admin.commands';
import { analyticsCommands } from './cli/analytics.commands';
import { apiKeyCommands } from './cli/api-key.commands';
import { backupCommands } from './cli/backup.commands';
import { type CliCommand, createCliContext, parseArgs, UsageError } from './cli/command';
import { ConfigError, loadConfig } from './config';
import { AppError } from './errors';

// Operator commands: `npm run cli -- <command> [args]`. Uses the same configuration as the server
// (DATABASE_URL, or the embedded database in DATA_DIR — stop the server first in that mode).
const commands: CliCommand[] = [...adminCommands, ...apiKeyCommands, ...backupCommands, ...analyticsCommands];

function help(): string {
  const width = Math.max(...commands.map((c) => c.usage.length));
  return [
    'Usage: npm run cli -- <command> [options]',
    '',
    ...commands.map((c) => `  ${c.usage.padEnd(width)}  ${c.description}`),
  ].join('\n');
}

async function main() {
  const [name, ...rest] = process.argv.slice(2);
  const command = commands.find((c) => c.name === name);
  if (!command) {
    console.error(
      name && name !== 'help' && name !== '--help' ? `Unknown command '${name}'.\n\n${help()}` : help(),
    );
    process.exit(name === 'help' || name === '--help' ? 0 : 2);
  }
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn' });
  await command.run(
    createCliContext(config, (line) => console.info(line)),
    parseArgs(rest),
  );
}

main().catch((err: unknown) => {
  if (err instanceof UsageError) console.error(`${err.message}\n\n${help()}`);
  else if (err instanceof AppError || err instanceof ConfigError) console.error(err.message);
  else console.error(err);
  process.exit(1);
});
