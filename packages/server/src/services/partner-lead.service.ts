import { phoneDigits } from '@uf/shared/data-request.schema';
import { ERROR_CODES } from '@uf/shared/errors';
import type { PartnerLead } from '@uf/shared/partner.schema';
import type { Pool } from 'pg';
import { AppError } from '../errors';
import { sha256Hex } from './consent.service';
import { GroupCommitter } from './group-commit';
import type { PartnerIdentity } from './partner-key.service';
import { isRowError, isTransient, lockKey } from './pg-transaction';
import { suppressionHashes } from './suppression.service';

// POST /api/partner/leads (ADR 032, ADR 051): idempotent by Idempotency-Key, one lead per partner, phone
// and last name per 24 hours. Both rules hold under concurrency because the statement first takes
// advisory locks on (partner, key) and on (partner, phone, last name), then looks and writes.

export const DUPLICATE_WINDOW_HOURS = 24;
export const IDEMPOTENCY_TTL_HOURS = 24;

/** Same fields, same values → same hash, whatever the key order of the JSON the partner sent. */
function requestHash(input: PartnerLead): string {
  const sorted = Object.fromEntries(Object.entries(input).sort(([a], [b]) => a.localeCompare(b)));
  return sha256Hex(JSON.stringify(sorted));
}

type Look = { stored_hash: string | null; stored_id: string | null; duplicate_id: string | null };

/** A partner lead as its batch statement takes it; `look` is filled in by the write. */
type PartnerRow = {
  id: string;
  partnerId: string;
  key: string;
  hash: string;
  digits: string;
  lastName: string;
  phoneHash: string;
  /** Advisory-lock keys of its rules, sorted by name (one or two). */
  lockKeys: string[];
  lockNames: string[];
  input: PartnerLead;
  look?: Look;
};

// One statement per batch, one round trip: for each lead in turn partner_lead_look() takes its locks
// (sorted, so two requests that need the same ones take them in the same order) and then looks with a
// fresh snapshot; a lead is inserted only when both rules allow. The locks are held until the batch
// commits. Leads that share a lock never go in one batch (they could not see each other in it).
const PARTNER_SQL = `
  with input as (
    select * from unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
      $8::bigint[], $9::bigint[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[],
      $16::smallint[], $17::smallint[], $18::smallint[], $19::text[], $20::text[]) with ordinality
      as t(id, partner_id, idempotency_key, request_hash, digits, last_name_key, phone_hash, lock1, lock2,
        first_name, last_name, street_address, city, state, phone, birth_month, birth_day, birth_year,
        beneficiary, trusted_form_url, ord)
  ), look as materialized (
    select i.ord, l.* from input i cross join lateral partner_lead_look(
      array_remove(array[i.lock1, i.lock2], null), i.partner_id, i.idempotency_key, $21, i.digits,
      i.last_name_key, $22, i.phone_hash) l
  ), lead as (
    insert into api_lead (id, first_name, last_name, street_address, city, state, phone, birth_month,
      birth_day, birth_year, beneficiary, trusted_form_url, partner_id, opted_out_at, created_at)
    select i.id, i.first_name, i.last_name, i.street_address, i.city, i.state, i.phone, i.birth_month,
      i.birth_day, i.birth_year, i.beneficiary, i.trusted_form_url, i.partner_id, look.suppressed_since, now()
    from input i join look using (ord)
    where look.stored_hash is null and look.duplicate_id is null
    returning id
  ), stored as (
    insert into partner_idempotency (partner_id, idempotency_key, request_hash, response_status, response_body)
    select i.partner_id, i.idempotency_key, i.request_hash, 201, jsonb_build_object('id', lead.id)
    from input i join lead using (id) where i.idempotency_key <> ''
  )
  select look.ord, look.stored_hash, look.stored_id, look.duplicate_id from look order by look.ord`;

async function writePartnerLeads(pool: Pool, rows: PartnerRow[]): Promise<void> {
  const column = (value: (r: PartnerRow) => unknown) => rows.map(value);
  const { rows: looks } = await pool.query<Look & { ord: string }>({
    name: 'partner_lead_create_batch',
    text: PARTNER_SQL,
    values: [
      column((r) => r.id),
      column((r) => r.partnerId),
      column((r) => r.key),
      column((r) => r.hash),
      column((r) => r.digits),
      column((r) => r.lastName),
      column((r) => r.phoneHash),
      column((r) => r.lockKeys[0]),
      column((r) => r.lockKeys[1] ?? null),
      column((r) => r.input.firstName),
      column((r) => r.input.lastName),
      column((r) => r.input.streetAddress),
      column((r) => r.input.city),
      column((r) => r.input.state),
      column((r) => r.input.phone),
      column((r) => r.input.birthMonth),
      column((r) => r.input.birthDay),
      column((r) => r.input.birthYear),
      column((r) => r.input.beneficiary ?? null),
      column((r) => r.input.trustedFormUrl ?? null),
      IDEMPOTENCY_TTL_HOURS,
      DUPLICATE_WINDOW_HOURS,
    ],
  });
  for (const look of looks) {
    const row = rows[Number(look.ord) - 1];
    if (row) row.look = look;
  }
}

/**
 * Stores partner leads by group commit (issue 14): requests that arrive while a batch is being written
 * go together in the next statement, and each answer comes only after its batch committed. One writer:
 * batches take their leads' locks one lead after another, so two batches at once could wait for each
 * other in a circle.
 */
export function createPartnerLeadWriter(pool: Pool) {
  const committer = new GroupCommitter<PartnerRow>({
    write: (rows) => writePartnerLeads(pool, rows),
    isRowError,
    isTransient,
    rowRejected: (err) => err as Error,
    unavailable: (reason) =>
      reason === 'closed'
        ? new AppError(ERROR_CODES.internal, 'The server is shutting down')
        : new AppError(ERROR_CODES.rateLimited, 'Too many leads right now. Please try again.'),
    maxBatch: 100,
    concurrency: 1,
    maxQueue: 5_000,
    keysOf: (row) => row.lockNames,
  });

  return {
    async create(
      partner: PartnerIdentity,
      input: PartnerLead,
      options: { idempotencyKey?: string },
    ): Promise<{ id: string; replayed: boolean }> {
      const key = options.idempotencyKey ?? '';
      const hash = requestHash(input);
      const digits = phoneDigits(input.phone);
      const lastName = input.lastName.toLowerCase();
      const locks = [`partner:dup:${partner.partnerId}:${digits}:${lastName}`];
      if (key) locks.push(`partner:idem:${partner.partnerId}:${key}`);
      const lockNames = [...new Set(locks)].sort();
      const row: PartnerRow = {
        id: crypto.randomUUID(),
        partnerId: partner.partnerId,
        key,
        hash,
        digits,
        lastName,
        phoneHash: suppressionHashes({ phone: input.phone }).phone,
        lockKeys: lockNames.map(lockKey),
        lockNames,
        input,
      };
      await committer.push(row);
      const look = row.look;
      if (!look) throw new Error('partner lead batch returned no row for a lead');
      if (look.stored_hash !== null) {
        if (look.stored_hash !== hash) {
          throw new AppError(
            ERROR_CODES.unprocessable,
            'This Idempotency-Key was already used for a different request. Use a new key for a new lead.',
          );
        }
        return { id: look.stored_id ?? '', replayed: true };
      }
      if (look.duplicate_id) {
        throw new AppError(
          ERROR_CODES.conflict,
          `You already sent a lead with this phone number and last name in the last ${DUPLICATE_WINDOW_HOURS} hours.`,
          undefined,
          { existingId: look.duplicate_id },
        );
      }
      return { id: row.id, replayed: false };
    },
    /** Stops taking leads and writes every queued one (graceful shutdown). */
    close: () => committer.close(),
  };
}

export type PartnerLeadWriter = ReturnType<typeof createPartnerLeadWriter>;
