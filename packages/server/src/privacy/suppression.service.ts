import { normalizeEmail, phoneDigits } from '@uf/shared/data-request.schema';
import { UNSUBSCRIBE_ANSWER } from '@uf/shared/unsubscribe.schema';
import type { Pool } from 'pg';
import { rateLimitedError } from '../errors';
import { inTransaction, type Sql } from '../platform/pg-transaction';
import { hitRateLimit } from '../platform/rate-limit.service';
import { sha256Hex } from '../platform/sha256';

// The suppression list (ADR 031): who must not be contacted, kept as SHA-256 hashes of the normalised
// e-mail address (trimmed, lower case) or phone number (10 digits) — the usual form of hashed
// suppression files, so the operator can scrub other lists against it. Leads that match carry
// opted_out_at, so tables and exports show it without hashing every row on read.

export type Identifiers = { email?: string | null; phone?: string | null };
export type SuppressionSource = 'unsubscribe_page' | 'data_request';

export function emailHash(email: string): string {
  return sha256Hex(normalizeEmail(email));
}

export function phoneHash(phone: string): string {
  return sha256Hex(phoneDigits(phone));
}

const validPhone = (phone: string | null | undefined): phone is string =>
  Boolean(phone) && phoneDigits(phone ?? '').length === 10;

/**
 * The advisory lock a submission and an opt-out of the same e-mail address share (transaction-scoped),
 * so an opt-out never slips between a submission's check and its insert.
 */
export const emailLockName = (email: string) => emailLockNameOfHash(emailHash(email));

/** emailLockName() of an address whose emailHash() is already at hand. */
export const emailLockNameOfHash = (hash: string) => `suppression:email:${hash}`;

/** The hashes to match: '' never equals a stored hash, so an absent identifier matches nothing. */
export function suppressionHashes(ids: Identifiers): { email: string; phone: string } {
  return {
    email: ids.email ? emailHash(ids.email) : '',
    phone: validPhone(ids.phone) ? phoneHash(ids.phone) : '',
  };
}

/** Puts the identifiers on the list (idempotent) and flags every lead that carries them. */
export async function addSuppression(sql: Sql, ids: Identifiers, source: SuppressionSource): Promise<void> {
  const hashes = suppressionHashes(ids);
  const email = ids.email ? normalizeEmail(ids.email) : '';
  const digits = validPhone(ids.phone) ? phoneDigits(ids.phone) : '';
  await sql.query(
    `with added as (
       insert into suppression (kind, value_hash, source)
       select kind, hash, $3 from (values ('email', $1::text), ('phone', $2::text)) v (kind, hash) where hash <> ''
       on conflict (kind, value_hash) do nothing
     ), website as (
       update website_lead set opted_out_at = now()
       where opted_out_at is null and ((lower(email) = $4 and $4 <> '') or (phone_digits(phone) = $5 and $5 <> ''))
       returning id, state, attribution->>'utm_source' as utm_source
     ), api as (
       update api_lead set opted_out_at = now()
       where opted_out_at is null and phone_digits(phone) = $5 and $5 <> ''
       returning id, state
     )
     -- Revocation travels (ADR 062): lead.opted_out to its subscribers and to every endpoint sent the lead.
     select
       webhook_enqueue('lead.opted_out', 'website', (select array_agg(id) from website),
         (select array_agg(state::text) from website), (select array_agg(utm_source) from website)),
       webhook_enqueue('lead.opted_out', 'api', (select array_agg(id) from api),
         (select array_agg(state::text) from api), (select array_agg(null::text) from api))`,
    [hashes.email, hashes.phone, source, email, digits],
  );
}

/** Opt-outs a client may send per window: plenty for people, a brake on scripts filling the list. */
export const UNSUBSCRIBE_LIMIT = { perClient: 30, windowSeconds: 10 * 60 };

/**
 * POST /api/unsubscribe: the same answer whether or not the address is known, so it reveals nothing.
 * Rate-limited per client address (the limit says nothing about any address either).
 */
export async function unsubscribe(pool: Pool, email: string, client: { ip: string | null }) {
  const hit = await hitRateLimit(
    pool,
    `unsubscribe:ip:${client.ip ?? 'unknown'}`,
    UNSUBSCRIBE_LIMIT.perClient,
    UNSUBSCRIBE_LIMIT.windowSeconds,
  );
  if (!hit.allowed) {
    throw rateLimitedError(
      `Too many requests. Please try again in ${Math.ceil(hit.retryAfterSeconds / 60)} minute(s).`,
      hit.retryAfterSeconds,
    );
  }
  await inTransaction(pool, [emailLockName(email)], (client) =>
    addSuppression(client, { email }, 'unsubscribe_page'),
  );
  return { ...UNSUBSCRIBE_ANSWER };
}
