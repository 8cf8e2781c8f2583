import { adminCommands } from './cli/admin.commands';
import { analyticsCommands } from './cli/analytics.commands';
import { apiKeyCommands } from './cli/api-key.commands';
import { backupCommands } from './cli/backup.commands';
import {
  type CliCommand,
  createCliContext,
  helpOf,
  parseArgs,
  UsageError,
  usageOf,
  wantsHelp,
} from './cli/command';
import { demoCommands } from './cli/demo.commands';
import { ConfigError, loadConfig } from './config';
import { AppError } from './errors';

// Operator commands: `npm run cli -- <command> [args]`. Uses the same configuration as the server
// (DATABASE_URL, or the embedded database in DATA_DIR — stop the server first in that mode).
// Strict (issue 25): an unknown flag or an extra argument exits 2 with the usage on stderr and changes
// nothing; --help/-h anywhere prints the command's help and changes nothing.
const commands: CliCommand[] = [
  ...adminCommands,
  ...apiKeyCommands,
  ...backupCommands,
  ...analyticsCommands,
  ...demoCommands,
];

function help(): string {
  const width = Math.max(...commands.map((c) => usageOf(c).length));
  return [
    'Usage: npm run cli -- <command> [options]     (npm run cli -- <command> --help for one command)',
    '',
    ...commands.map((c) => `  ${usageOf(c).padEnd(width)}  ${c.description}`),
  ].join('\n');
}

async function main() {
  const [name, ...rest] = process.argv.slice(2);
  const command = commands.find((c) => c.name === name);
  if (!command) {
    const asked = name === undefined || name === 'help' || name === '--help' || name === '-h';
    if (asked) console.info(help());
    else console.error(`Unknown command '${name}'.\n\n${help()}`);
    process.exit(asked ? 0 : 2);
  }
  if (wantsHelp(rest)) {
    console.info(helpOf(command));
    return;
  }
  let args: ReturnType<typeof parseArgs>;
  try {
    args = parseArgs(command, rest);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`${err.message}\n\n${helpOf(command)}`);
    process.exit(2);
  }
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn' });
  await command.run(
    createCliContext(config, (line) => console.info(line)),
    args,
  );
}

main().catch((err: unknown) => {
  if (err instanceof UsageError) {
    console.error(err.message);
    process.exit(2);
  }
  if (err instanceof AppError || err instanceof ConfigError) console.error(err.message);
  else console.error(err);
  process.exit(1);
});
