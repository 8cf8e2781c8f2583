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

export type CliCommand = {
  name: string;
  usage: string;
  description: string;
  run(ctx: CliContext, args: ParsedArgs): Promise<void>;
};

export type ParsedArgs = { positional: string[]; flags: Record<string, string | true> };

export function parseArgs(argv: string[]): ParsedArgs {
  const positional: string[] = [];
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg.startsWith('--')) {
      const [key, inline] = arg.slice(2).split('=', 2);
      const next = argv[i + 1];
      if (inline !== undefined) flags[key ?? ''] = inline;
      else if (next !== undefined && !next.startsWith('--')) {
        flags[key ?? ''] = next;
        i++;
      } else flags[key ?? ''] = true;
    } else positional.push(arg);
  }
  return { positional, flags };
}

export class UsageError extends Error {}

export function requirePositional(args: ParsedArgs, index: number, name: string): string {
  const value = args.positional[index];
  if (!value) throw new UsageError(`missing <${name}>`);
  return value;
}

export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags[name];
  return typeof v === 'string' ? v : undefined;
}
