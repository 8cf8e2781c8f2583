import { recordAudit } from '../admin/audit.service';
import { createApiKey, listApiKeys, revokeApiKey } from '../partners/partner-key.service';
import { type CliCommand, requirePositional } from './command';

// Partner API keys (ADR 032). The key is printed once at creation; only its SHA-256 is stored.
export const apiKeyCommands: CliCommand[] = [
  {
    name: 'api-key:create',
    args: ['<partner name>'],
    description: 'Create an API key for a partner (the partner is created on first use). Shows the key once.',
    async run(ctx, args) {
      const partnerName = requirePositional(args, 0, 'partner name');
      const created = await ctx.withDatabase(async ({ db }) => {
        const result = await createApiKey(db.orm.em.fork(), partnerName);
        await recordAudit(db.pool, {
          actor: 'cli',
          action: 'partner_key.create',
          detail: { partner: result.partner.name, keyId: result.keyId, keyPrefix: result.keyPrefix },
        });
        return result;
      });
      ctx.out(`Created API key ${created.keyId} for partner '${created.partner.name}'.`);
      ctx.out(`Key (shown only now, store it safely): ${created.secret}`);
      ctx.out('The partner sends it as: Authorization: Bearer <key>  — see /api/docs.');
    },
  },
  {
    name: 'api-key:list',
    description: 'List partner API keys (prefix, partner, created, last used, revoked).',
    async run(ctx) {
      const keys = await ctx.withDatabase(({ db }) => listApiKeys(db.orm.em.fork()));
      if (keys.length === 0) ctx.out('No API keys.');
      for (const k of keys) {
        const status = k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'active';
        const used = k.lastUsedAt ? k.lastUsedAt.toISOString() : 'never';
        ctx.out(
          `${k.id}\t${k.keyPrefix}…\t${k.partner}\tcreated ${k.createdAt.toISOString()}\tlast used ${used}\t${status}`,
        );
      }
    },
  },
  {
    name: 'api-key:revoke',
    args: ['<key id or prefix>'],
    description: 'Revoke a partner API key; it stops working on the next request.',
    async run(ctx, args) {
      const which = requirePositional(args, 0, 'key id or prefix');
      const revoked = await ctx.withDatabase(async ({ db }) => {
        const result = await revokeApiKey(db.orm.em.fork(), which);
        await recordAudit(db.pool, {
          actor: 'cli',
          action: 'partner_key.revoke',
          detail: { keyId: result.id, keyPrefix: result.keyPrefix },
        });
        return result;
      });
      ctx.out(`Revoked API key ${revoked.id} (${revoked.keyPrefix}…).`);
    },
  },
];
