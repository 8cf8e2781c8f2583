import { phoneDigits } from '@uf/shared/data-request.schema';
import { ERROR_CODES } from '@uf/shared/errors';
import type { PartnerLead } from '@uf/shared/partner.schema';
import type { Pool } from 'pg';
import { ApiLead } from '../db/entities/api-lead.entity';
import { columnsOf } from '../db/entity-columns';
import { AppError } from '../errors';
import { batchInsert, databaseCommitter } from '../platform/pg-batch';
import { lockKey } from '../platform/pg-transaction';
import { sha256Hex } from '../privacy/consent.service';
import { suppressionHashes } from '../privacy/suppression.service';
import type { PartnerIdentity } from './partner-key.service';

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

/**
 * The leads as the statement's input rows (numbered `ord` from 1), one array parameter per column: the
 * columns of api_lead with where their values come from (ADR 064), then what the rules need.
 */
const PARTNER_INSERT = batchInsert(columnsOf(ApiLead)).from<PartnerRow>(
  {
    // The lead's fields go to the columns of the same names.
    id: (r) => r.id,
    partnerId: (r) => r.partnerId,
    optedOutAt: { sql: 'look.suppressed_since' },
    createdAt: { sql: 'now()' },
  },
  [
    ['idempotency_key', 'text', (r) => r.key],
    ['request_hash', 'text', (r) => r.hash],
    ['digits', 'text', (r) => r.digits],
    ['last_name_key', 'text', (r) => r.lastName],
    ['phone_hash', 'text', (r) => r.phoneHash],
    ['lock1', 'bigint', (r) => r.lockKeys[0]],
    ['lock2', 'bigint', (r) => r.lockKeys[1] ?? null],
  ],
  { ordinality: true },
);
const [TTL_HOURS, DUP_HOURS] = [0, 1].map((i) => `$${PARTNER_INSERT.next + i}`);

// One statement per batch, one round trip: for each lead in turn partner_lead_look() takes its locks
// (sorted, so two requests that need the same ones take them in the same order) and then looks with a
// fresh snapshot; a lead is inserted only when both rules allow. The locks are held until the batch
// commits. Leads that share a lock never go in one batch (they could not see each other in it).
const PARTNER_SQL = `
  with input as (
    select * from ${PARTNER_INSERT.from}
  ), look as materialized (
    select i.ord, l.* from input i cross join lateral partner_lead_look(
      array_remove(array[i.lock1, i.lock2], null), i.partner_id, i.idempotency_key, ${TTL_HOURS}, i.digits,
      i.last_name_key, ${DUP_HOURS}, i.phone_hash) l
  ), lead as (
    insert into ${PARTNER_INSERT.into}
    select ${PARTNER_INSERT.select('i')}
    from input i join look using (ord)
    where look.stored_hash is null and look.duplicate_id is null
    returning id, state, opted_out_at
  ), hooks as (
    -- The batch's webhook messages (ADR 062), in the same statement as its leads (the fan-out job is
    -- queued after the commit).
    select webhook_enqueue('api_lead.created', 'api', array_agg(id), array_agg(state::text), array_agg(null::text),
      false) as queued
    from lead where opted_out_at is null
  ), stored as (
    insert into partner_idempotency (partner_id, idempotency_key, request_hash, response_status, response_body)
    select i.partner_id, i.idempotency_key, i.request_hash, 201, jsonb_build_object('id', lead.id)
    from input i join lead using (id) where i.idempotency_key <> ''
  )
  select look.ord, look.stored_hash, look.stored_id, look.duplicate_id, hooks.queued
  from look cross join hooks order by look.ord`;

async function writePartnerLeads(pool: Pool, rows: PartnerRow[], outboxWritten: () => void): Promise<void> {
  const { rows: looks } = await pool.query<Look & { ord: string; queued: number | null }>({
    name: 'partner_lead_create_batch',
    text: PARTNER_SQL,
    values: [...PARTNER_INSERT.values(rows), IDEMPOTENCY_TTL_HOURS, DUPLICATE_WINDOW_HOURS],
  });
  for (const look of looks) {
    const row = rows[Number(look.ord) - 1];
    if (row) row.look = look;
  }
  if ((looks[0]?.queued ?? 0) > 0) outboxWritten();
}

/**
 * Stores partner leads by group commit (issue 14): requests that arrive while a batch is being written
 * go together in the next statement, and each answer comes only after its batch committed. One writer:
 * batches take their leads' locks one lead after another, so two batches at once could wait for each
 * other in a circle.
 */
export function createPartnerLeadWriter(
  pool: Pool,
  /** A batch wrote webhook messages to the outbox and committed: queue their fan-out (ADR 062). */
  outboxWritten: () => void = () => {},
) {
  const committer = databaseCommitter<PartnerRow>({
    pool,
    name: 'partner leads',
    write: (rows) => writePartnerLeads(pool, rows, outboxWritten),
    busyMessage: 'Too many leads right now. Please try again.',
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
