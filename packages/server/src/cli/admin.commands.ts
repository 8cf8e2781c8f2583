import { createAdmin, listAdmins, resetAdminPassword } from '../services/admin-user.service';
import { generatePassword } from '../services/password';
import { type CliCommand, requirePositional, stringFlag } from './command';

// The password comes from --password or the ADMIN_PASSWORD variable; otherwise one is generated
// and printed once. (Passing it as a flag leaves it in shell history: prefer the variable.)
function passwordFrom(args: Parameters<CliCommand['run']>[1], env: string | undefined) {
  const given = stringFlag(args, 'password') ?? env;
  return given ? { password: given, generated: false } : { password: generatePassword(), generated: true };
}

export const adminCommands: CliCommand[] = [
  {
    name: 'admin:create',
    usage: 'admin:create <username> [--password <password>]',
    description: 'Create an admin account (password from --password, ADMIN_PASSWORD, or generated).',
    async run(ctx, args) {
      const username = requirePositional(args, 0, 'username');
      const { password, generated } = passwordFrom(args, ctx.config.adminPassword);
      await ctx.withDatabase(async ({ db }) => {
        await createAdmin(db.orm.em.fork(), username, password);
      });
      ctx.out(`Created admin '${username}'.${generated ? ` Password: ${password}` : ''}`);
    },
  },
  {
    name: 'admin:reset-password',
    usage: 'admin:reset-password <username> [--password <password>]',
    description: 'Set a new password for an admin (from --password, ADMIN_PASSWORD, or generated).',
    async run(ctx, args) {
      const username = requirePositional(args, 0, 'username');
      const { password, generated } = passwordFrom(args, ctx.config.adminPassword);
      await ctx.withDatabase(async ({ db }) => {
        await resetAdminPassword(db.orm.em.fork(), username, password);
      });
      ctx.out(`Password of '${username}' changed.${generated ? ` New password: ${password}` : ''}`);
    },
  },
  {
    name: 'admin:list',
    usage: 'admin:list',
    description: 'List admin accounts.',
    async run(ctx) {
      const admins = await ctx.withDatabase(({ db }) => listAdmins(db.orm.em.fork()));
      if (admins.length === 0) ctx.out('No admin accounts.');
      for (const a of admins) ctx.out(`${a.username}\t(created ${a.createdAt.toISOString()})`);
    },
  },
];
