import { createInterface } from 'node:readline';
import { endOtherSessions } from '../admin/admin-sessions.service';
import { clearTwoFactor } from '../admin/admin-two-factor.service';
import { createAdmin, findAdminOrFail, listAdmins, resetAdminPassword } from '../admin/admin-user.service';
import { recordAudit } from '../admin/audit.service';
import { generatePassword } from '../admin/password';
import {
  type CliCommand,
  type CliOption,
  type ParsedArgs,
  requirePositional,
  stringFlag,
  UsageError,
} from './command';

const PASSWORD_OPTIONS: Record<string, CliOption> = {
  'password-stdin': {
    type: 'boolean',
    description: 'Read the password from the first line of standard input.',
  },
  prompt: { type: 'boolean', description: 'Ask for the password on the terminal (not echoed).' },
  password: {
    type: 'string',
    description: 'The password itself (it stays in the shell history: prefer the two above).',
  },
};

async function firstLineOfStdin(): Promise<string> {
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    lines.close();
    return line;
  }
  return '';
}

/** Reads a line from the terminal without echoing it. */
function promptHidden(question: string): Promise<string> {
  const stdin = process.stdin;
  if (!stdin.isTTY) return Promise.reject(new UsageError('--prompt needs a terminal; use --password-stdin'));
  process.stderr.write(question);
  return new Promise((resolve) => {
    let value = '';
    stdin.setRawMode(true);
    stdin.setEncoding('utf8');
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') {
          stdin.setRawMode(false);
          stdin.pause();
          stdin.off('data', onData);
          process.stderr.write('\n');
          resolve(value);
          return;
        }
        if (ch === '\u0003') process.exit(130);
        value = ch === '\u007f' ? value.slice(0, -1) : value + ch;
      }
    };
    stdin.on('data', onData);
    stdin.resume();
  });
}

/**
 * The password from --password-stdin, --prompt or --password (one of them at most), else ADMIN_PASSWORD,
 * else a generated one that is printed once.
 */
async function passwordFrom(args: ParsedArgs, env: string | undefined) {
  const sources = ['password-stdin', 'prompt', 'password'].filter((f) => args.flags[f] !== undefined);
  if (sources.length > 1) throw new UsageError('give the password one way only');
  if (args.flags['password-stdin']) return { password: await firstLineOfStdin(), generated: false };
  if (args.flags.prompt) {
    const first = await promptHidden('Password: ');
    if ((await promptHidden('Again: ')) !== first) throw new UsageError('the two passwords differ');
    return { password: first, generated: false };
  }
  const given = stringFlag(args, 'password') ?? env;
  return given ? { password: given, generated: false } : { password: generatePassword(), generated: true };
}

export const adminCommands: CliCommand[] = [
  {
    name: 'admin:create',
    args: ['<username>'],
    options: PASSWORD_OPTIONS,
    description:
      'Create an admin account (password from stdin, a prompt, --password, ADMIN_PASSWORD, or generated).',
    async run(ctx, args) {
      const username = requirePositional(args, 0, 'username');
      const { password, generated } = await passwordFrom(args, ctx.config.adminPassword);
      await ctx.withDatabase(async ({ db }) => {
        await createAdmin(db.orm.em.fork(), username, password, {
          scryptLogN: ctx.config.adminPasswordScryptLogN,
        });
      });
      ctx.out(`Created admin '${username}'.${generated ? ` Password: ${password}` : ''}`);
    },
  },
  {
    name: 'admin:reset-password',
    args: ['<username>'],
    options: PASSWORD_OPTIONS,
    description: 'Set a new password for an admin and end their sessions (password as for admin:create).',
    async run(ctx, args) {
      const username = requirePositional(args, 0, 'username');
      const { password, generated } = await passwordFrom(args, ctx.config.adminPassword);
      await ctx.withDatabase(async ({ db }) => {
        const admin = await resetAdminPassword(db.orm.em.fork(), username, password, {
          scryptLogN: ctx.config.adminPasswordScryptLogN,
        });
        const ended = await endOtherSessions(db.pool, admin.id, null);
        await recordAudit(db.pool, {
          actor: 'cli',
          action: 'admin.password_reset',
          detail: { admin: admin.username, endedSessions: ended },
        });
      });
      ctx.out(`Password of '${username}' changed.${generated ? ` New password: ${password}` : ''}`);
    },
  },
  {
    name: 'admin:reset-2fa',
    args: ['<username>'],
    description:
      "Turn an admin's two-factor sign-in off (lost phone and recovery codes) and end their sessions.",
    async run(ctx, args) {
      const username = requirePositional(args, 0, 'username');
      await ctx.withDatabase(async ({ db }) => {
        const admin = await findAdminOrFail(db.orm.em.fork(), username);
        await clearTwoFactor(db.pool, admin.id);
        const ended = await endOtherSessions(db.pool, admin.id, null);
        await recordAudit(db.pool, {
          actor: 'cli',
          action: 'admin.two_factor_reset',
          detail: { admin: admin.username, endedSessions: ended },
        });
      });
      ctx.out(
        `Two-factor sign-in of '${username}' is off; they can sign in with their password and enrol again.`,
      );
    },
  },
  {
    name: 'admin:list',
    description: 'List admin accounts.',
    async run(ctx) {
      const admins = await ctx.withDatabase(({ db }) => listAdmins(db.orm.em.fork()));
      if (admins.length === 0) ctx.out('No admin accounts.');
      for (const a of admins) ctx.out(`${a.username}\t(created ${a.createdAt.toISOString()})`);
    },
  },
];
