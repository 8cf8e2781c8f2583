import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ERROR_CODES } from '@uf/shared/errors';
import type { Pool } from 'pg';
import { Partner, PartnerApiKey } from '../db/entities/partner.entity';
import { AppError } from '../errors';
import { sha256Hex } from '../platform/sha256';

// Partner API keys (ADR 032): 192 random bits, shown once, stored as SHA-256 (a fast hash is enough for
// a random secret of that size; only guessable secrets such as passwords need a slow one).

const KEY_PREFIX = 'ufk_';
/** What `api-key:list` shows of a key: enough to tell keys apart, useless for authenticating. */
const DISPLAY_CHARS = 12;

export type PartnerIdentity = { partnerId: string; partnerName: string; keyId: string };

export async function createApiKey(em: EntityManager, partnerName: string) {
  const name = partnerName.trim();
  if (!name || name.length > 100)
    throw new AppError(ERROR_CODES.validation, 'Partner name must be 1 to 100 characters');
  const secret = `${KEY_PREFIX}${randomBytes(24).toString('base64url')}`;
  return em.transactional(async (tx) => {
    // One partner per name (case-insensitive): a second key for "Acme" belongs to the same partner.
    await tx.execute('insert into partner (id, name) values (?, ?) on conflict ((lower(name))) do nothing', [
      crypto.randomUUID(),
      name,
    ]);
    const rows = await tx.execute<{ id: string; name: string }[]>(
      'select id, name from partner where lower(name) = lower(?)',
      [name],
    );
    const partner = rows[0];
    if (!partner) throw new Error('partner row missing after upsert');
    const key = tx.create(PartnerApiKey, {
      partnerId: partner.id,
      keyPrefix: secret.slice(0, DISPLAY_CHARS),
      keyHash: sha256Hex(secret),
    });
    await tx.flush();
    return {
      partner: { id: partner.id, name: partner.name },
      keyId: key.id,
      keyPrefix: key.keyPrefix,
      secret,
    };
  });
}

export async function listApiKeys(em: EntityManager) {
  const keys = await em.find(PartnerApiKey, {}, { orderBy: { createdAt: 'asc' } });
  const partners = await em.find(Partner, { id: { $in: [...new Set(keys.map((k) => k.partnerId))] } });
  const nameOf = new Map(partners.map((p) => [p.id, p.name]));
  return keys.map((k) => ({
    id: k.id,
    partner: nameOf.get(k.partnerId) ?? '?',
    keyPrefix: k.keyPrefix,
    createdAt: k.createdAt,
    lastUsedAt: k.lastUsedAt ?? null,
    revokedAt: k.revokedAt ?? null,
  }));
}

/** Revokes a key by its id or its displayed prefix (honoured everywhere within KEY_CACHE_SECONDS). */
export async function revokeApiKey(em: EntityManager, idOrPrefix: string) {
  const isUuid = /^[0-9a-f-]{36}$/i.test(idOrPrefix);
  const matches = await em.find(PartnerApiKey, isUuid ? { id: idOrPrefix } : { keyPrefix: idOrPrefix });
  if (matches.length === 0) throw new AppError(ERROR_CODES.notFound, `No API key '${idOrPrefix}'`);
  if (matches.length > 1) {
    throw new AppError(ERROR_CODES.conflict, `'${idOrPrefix}' matches several keys: revoke by id instead`);
  }
  const key = matches[0]!;
  if (!key.revokedAt) {
    key.revokedAt = new Date();
    await em.flush();
    keyCache.clear(); // this process stops accepting it at once; others within KEY_CACHE_SECONDS
  }
  return { id: key.id, keyPrefix: key.keyPrefix, revokedAt: key.revokedAt };
}

/**
 * A valid key's partner is remembered for KEY_CACHE_SECONDS in each process (one query fewer per
 * partner request, ADR 051). A key revoked with the CLI therefore stops working within that time on
 * every replica, and at once in the process that revoked it.
 */
export const KEY_CACHE_SECONDS = 10;
const KEY_CACHE_SIZE = 1000;
const keyCache = new Map<string, { identity: PartnerIdentity; expiresAt: number }>();

/** The partner behind a Bearer key, or 401 for a missing, unknown or revoked key (one message for all). */
export async function authenticatePartner(
  pool: Pool,
  authorization: string | undefined,
): Promise<PartnerIdentity> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  const secret = match?.[1];
  if (!secret) {
    throw new AppError(ERROR_CODES.unauthorized, 'Send your API key as: Authorization: Bearer <key>');
  }
  const keyHash = sha256Hex(secret);
  const cached = keyCache.get(keyHash);
  if (cached && cached.expiresAt > Date.now()) return cached.identity;
  // Touch last_used_at at most once a minute per key: visible in api-key:list without a write per call.
  const { rows } = await pool.query<{ key_id: string; partner_id: string; partner_name: string }>(
    `with hit as (
       select k.id, k.partner_id from partner_api_key k where k.key_hash = $1 and k.revoked_at is null
     ), touched as (
       update partner_api_key set last_used_at = now()
       where id in (select id from hit) and (last_used_at is null or last_used_at < now() - interval '1 minute')
     )
     select hit.id as key_id, hit.partner_id, p.name as partner_name from hit join partner p on p.id = hit.partner_id`,
    [keyHash],
  );
  const row = rows[0];
  if (!row) {
    keyCache.delete(keyHash);
    throw new AppError(ERROR_CODES.unauthorized, 'The API key is not valid or has been revoked');
  }
  const identity = { partnerId: row.partner_id, partnerName: row.partner_name, keyId: row.key_id };
  if (keyCache.size >= KEY_CACHE_SIZE) keyCache.clear();
  keyCache.set(keyHash, { identity, expiresAt: Date.now() + KEY_CACHE_SECONDS * 1000 });
  return identity;
}
