import { parseArgs as nodeParseArgs } from 'node:util';
import type { AppConfig } from '../config';
import { type Connected, connectForCommand } from '../db/connect';

export type CliContext = {
  config: AppConfig;
  /** Connects to the configured database (migrated) for the duration of `fn`. */
  withDatabase<T>(fn: (c: Connected) => Promise<T>): Promise<T>;
  out(line: string): void;
};

/** The context commands run with: `out` for their output, the configured database on demand. */
export function createCliContext(config: AppConfig, out: (line: string) => void): CliContext {
  return {
    config,
    out,
    async withDatabase(fn) {
      const c = await connectForCommand(config);
      try {
        return await fn(c);
      } finally {
        await c.close();
      }
    },
  };
}

export type CliOption = { type: 'string' | 'boolean'; short?: string; value?: string; description: string };

export type CliCommand = {
  name: string;
  /** Positional arguments, in order: `<name>` required, `[name]` optional. */
  args?: string[];
  /** Flags the command accepts; any other flag is a usage error (exit 2). --help/-h comes with every command. */
  options?: Record<string, CliOption>;
  description: string;
  run(ctx: CliContext, args: ParsedArgs): Promise<void>;
};

export type ParsedArgs = { positional: string[]; flags: Record<string, string | boolean | undefined> };

/** A mistake on the command line: exit 2 with the command's usage on stderr, nothing changed. */
export class UsageError extends Error {}

/** One line: the command, its arguments and its flags. */
export function usageOf(command: CliCommand): string {
  const flags = Object.entries(command.options ?? {}).map(
    ([name, o]) => `[--${name}${o.type === 'string' ? ` <${o.value ?? name}>` : ''}]`,
  );
  return [command.name, ...(command.args ?? []), ...flags].join(' ');
}

/** `--help`: the usage line, the description and every flag. */
export function helpOf(command: CliCommand): string {
  const options = Object.entries(command.options ?? {}).map(([name, o]) => {
    const flag = `${o.short ? `-${o.short}, ` : ''}--${name}${o.type === 'string' ? ` <${o.value ?? name}>` : ''}`;
    return `  ${flag.padEnd(28)}  ${o.description}`;
  });
  return [
    `Usage: npm run cli -- ${usageOf(command)}`,
    '',
    command.description,
    '',
    'Options:',
    ...options,
    `  ${'-h, --help'.padEnd(28)}  Show this help and do nothing else.`,
  ].join('\n');
}

/** True when --help or -h appears anywhere before a `--`: the command then only prints its help. */
export function wantsHelp(argv: string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

/**
 * node:util parseArgs, strict: an unknown flag, a missing value, a missing argument or one too many is a
 * UsageError — before anything runs, so a mistyped command changes nothing.
 */
export function parseArgs(command: CliCommand, argv: string[]): ParsedArgs {
  let parsed: ReturnType<typeof nodeParseArgs>;
  try {
    parsed = nodeParseArgs({
      args: argv,
      options: Object.fromEntries(
        Object.entries(command.options ?? {}).map(([name, o]) => [
          name,
          o.short ? { type: o.type, short: o.short } : { type: o.type },
        ]),
      ),
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const names = command.args ?? [];
  const required = names.filter((n) => n.startsWith('<')).length;
  if (parsed.positionals.length < required) {
    throw new UsageError(`missing ${names[parsed.positionals.length]}`);
  }
  if (parsed.positionals.length > names.length) {
    const extra = parsed.positionals.slice(names.length).map((a) => `'${a}'`);
    throw new UsageError(`unexpected argument${extra.length > 1 ? 's' : ''} ${extra.join(' ')}`);
  }
  return { positional: parsed.positionals, flags: parsed.values as ParsedArgs['flags'] };
}

export function requirePositional(args: ParsedArgs, index: number, name: string): string {
  const value = args.positional[index];
  if (!value) throw new UsageError(`missing <${name}>`);
  return value;
}

export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags[name];
  return typeof v === 'string' ? v : undefined;
}
