import type { EntityManager } from '@mikro-orm/postgresql';
import { normalizeEmail, phoneDigits } from '@uf/shared/data-request.schema';
import { UNSUBSCRIBE_ANSWER } from '@uf/shared/unsubscribe.schema';
import { sha256Hex } from './consent.service';

// The suppression list (ADR 031): who must not be contacted, kept as SHA-256 hashes of the normalised
// e-mail address (trimmed, lower case) or phone number (10 digits) — the usual form of hashed
// suppression files, so the operator can scrub other lists against it. Leads that match carry opted_out_at, so tables and exports show it
// without hashing every row on read.

export type Identifiers = { email?: string | null; phone?: string | null };
export type SuppressionSource = 'unsubscribe_page' | 'data_request';

const LOCK_NAMESPACE = 727_274_006;

export function emailHash(email: string): string {
  return sha256Hex(normalizeEmail(email));
}

export function phoneHash(phone: string): string {
  return sha256Hex(phoneDigits(phone));
}

function hashesOf(ids: Identifiers): { kind: 'email' | 'phone'; hash: string }[] {
  const out: { kind: 'email' | 'phone'; hash: string }[] = [];
  if (ids.email) out.push({ kind: 'email', hash: emailHash(ids.email) });
  if (ids.phone && phoneDigits(ids.phone).length === 10)
    out.push({ kind: 'phone', hash: phoneHash(ids.phone) });
  return out;
}

/**
 * Serialises a lead submission and an opt-out of the same e-mail address (transaction-scoped lock),
 * so an opt-out never slips between a submission's check and its insert.
 */
export async function lockEmail(tx: EntityManager, email: string): Promise<void> {
  await tx.execute('select pg_advisory_xact_lock(?, hashtext(?))', [LOCK_NAMESPACE, emailHash(email)]);
}

/** When the identity was first suppressed, or null when it is not on the list. */
export async function suppressedSince(tx: EntityManager, ids: Identifiers): Promise<Date | null> {
  const hashes = hashesOf(ids);
  if (hashes.length === 0) return null;
  const rows = await tx.execute<{ since: Date | string | null }[]>(
    `select min(created_at) as since from suppression
     where (kind = 'email' and value_hash = ?) or (kind = 'phone' and value_hash = ?)`,
    [hashes.find((h) => h.kind === 'email')?.hash ?? '', hashes.find((h) => h.kind === 'phone')?.hash ?? ''],
  );
  const since = rows[0]?.since;
  return since ? new Date(since) : null;
}

/** Puts the identifiers on the list (idempotent) and flags every lead that carries them. */
export async function addSuppression(
  tx: EntityManager,
  ids: Identifiers,
  source: SuppressionSource,
): Promise<void> {
  for (const { kind, hash } of hashesOf(ids)) {
    await tx.execute(
      'insert into suppression (kind, value_hash, source) values (?, ?, ?) on conflict (kind, value_hash) do nothing',
      [kind, hash, source],
    );
  }
  if (ids.email) {
    await tx.execute(
      'update website_lead set opted_out_at = now() where lower(email) = ? and opted_out_at is null',
      [normalizeEmail(ids.email)],
    );
  }
  if (ids.phone && phoneDigits(ids.phone).length === 10) {
    const digits = phoneDigits(ids.phone);
    await tx.execute(
      'update website_lead set opted_out_at = now() where phone_digits(phone) = ? and opted_out_at is null',
      [digits],
    );
    await tx.execute(
      'update api_lead set opted_out_at = now() where phone_digits(phone) = ? and opted_out_at is null',
      [digits],
    );
  }
}

/** POST /api/unsubscribe: the same answer whether or not the address is known, so it reveals nothing. */
export async function unsubscribe(em: EntityManager, email: string) {
  await em.transactional(async (tx) => {
    await lockEmail(tx, email);
    await addSuppression(tx, { email }, 'unsubscribe_page');
  });
  return { ...UNSUBSCRIBE_ANSWER };
}
