import { phoneDigits } from '@uf/shared/data-request.schema';
import { ERROR_CODES } from '@uf/shared/errors';
import type { PartnerLead } from '@uf/shared/partner.schema';
import { REASON_CODES, type ReasonCode, type Verdict } from '@uf/shared/quality';
import type { Pool } from 'pg';
import { ApiLead } from '../db/entities/api-lead.entity';
import { columnsOf } from '../db/entity-columns';
import { AppError } from '../errors';
import { batchInsert, databaseCommitter } from '../platform/pg-batch';
import { lockKey } from '../platform/pg-transaction';
import { sha256Hex } from '../platform/sha256';
import { suppressionHashes } from '../privacy/suppression.service';
import { type Assessment, assessPartnerLead } from '../quality/lead-quality';
import type { Quality } from '../quality/quality.service';
import { verdictSql } from '../quality/verdict-sql';
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

type Look = {
  stored_hash: string | null;
  stored_id: string | null;
  duplicate_id: string | null;
  verdict: Verdict | null;
  reasons: ReasonCode[] | null;
};

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
  /** Lead quality (issue 33): the checks its fields allow; the statement adds the duplicate look-up. */
  quality: Assessment;
  qualityLockKeys: string[];
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
    qualityVerdict: { sql: verdictSql('judged.codes', '$ACTIONS') },
    qualityReasons: { sql: 'judged.codes' },
    qualitySignals: { sql: 'judged.signals' },
    qualityDecidedBy: { sql: "'rules'" },
    qualityDecidedAt: { sql: 'now()' },
    qualityRulesVersion: { sql: '$VERSION::int' },
    phoneE164: (r) => r.quality.phoneE164,
  },
  [
    ['idempotency_key', 'text', (r) => r.key],
    ['request_hash', 'text', (r) => r.hash],
    ['digits', 'text', (r) => r.digits],
    ['last_name_key', 'text', (r) => r.lastName],
    ['phone_hash', 'text', (r) => r.phoneHash],
    ['lock1', 'bigint', (r) => r.lockKeys[0]],
    ['lock2', 'bigint', (r) => r.lockKeys[1] ?? null],
    ['quality_codes', 'text', (r) => `{${r.quality.codes.join(',')}}`],
    ['quality_signals', 'jsonb', (r) => JSON.stringify(r.quality.signals)],
    ['quality_lock_keys', 'text', (r) => `{${r.qualityLockKeys.join(',')}}`],
    ['phone_look', 'text', (r) => r.quality.lookKeys.phone],
  ],
  { ordinality: true },
);
const [TTL_HOURS, DUP_HOURS, ACTIONS, VERSION, WINDOW_DAYS, CODES] = [0, 1, 2, 3, 4, 5].map(
  (i) => `$${PARTNER_INSERT.next + i}`,
);
const PARTNER_SELECT = PARTNER_INSERT.select('i')
  .replaceAll('$ACTIONS', ACTIONS ?? '')
  .replaceAll('$VERSION', VERSION ?? '');

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
  ), fresh as materialized (
    -- The leads both rules let in.
    select i.* from input i join look using (ord)
    where look.stored_hash is null and look.duplicate_id is null
  ), judged as materialized (
    -- Lead quality (issue 33): the same phone as another lead lately (website or API), looked up for the
    -- whole batch in one call after the locks of all its phones; the field checks came with the row.
    select i.ord,
      array(select c from unnest(i.quality_codes::text[]
        || case when q.dup_phone is not null then '{DUPLICATE_PHONE}'::text[] else '{}' end) c
        order by array_position(${CODES}::text[], c)) as codes,
      i.quality_signals || jsonb_strip_nulls(jsonb_build_object('duplicatePhoneIds', q.dup_phone)) as signals
    from (
      select array_agg(ord) as ords, array_agg(phone_look) as phones,
        (select array_agg(k) from fresh, unnest(quality_lock_keys::bigint[]) k) as lock_keys
      from fresh
    ) b
    cross join lateral lead_quality_look_batch(b.ords, b.lock_keys, b.phones, null, null, null,
      ${WINDOW_DAYS}::int, 0, 0) q
    join fresh i using (ord)
  ), lead as (
    insert into ${PARTNER_INSERT.into}
    select ${PARTNER_SELECT}
    from input i join look using (ord) join judged using (ord)
    returning id, state, opted_out_at, quality_verdict, quality_reasons
  ), hooks as (
    -- The batch's webhook messages (ADR 062), in the same statement as its leads (the fan-out job is
    -- queued after the commit).
    select webhook_enqueue('api_lead.created', 'api', array_agg(id), array_agg(state::text), array_agg(null::text),
      false) as queued
    from lead where opted_out_at is null and quality_verdict = 'accept'
  ), stored as (
    insert into partner_idempotency (partner_id, idempotency_key, request_hash, response_status, response_body)
    select i.partner_id, i.idempotency_key, i.request_hash, 201, jsonb_build_object('id', lead.id)
    from input i join lead using (id) where i.idempotency_key <> ''
  )
  select look.ord, look.stored_hash, look.stored_id, look.duplicate_id, hooks.queued,
    lead.quality_verdict as verdict, lead.quality_reasons as reasons
  from look cross join hooks join input i using (ord) left join lead on lead.id = i.id
  order by look.ord`;

async function writePartnerLeads(
  pool: Pool,
  quality: Quality,
  rows: PartnerRow[],
  outboxWritten: () => void,
): Promise<void> {
  const { settings, version } = await quality.settings.current();
  const { rows: looks } = await pool.query<Look & { ord: string; queued: number | null }>({
    name: 'partner_lead_create_batch',
    text: PARTNER_SQL,
    values: [
      ...PARTNER_INSERT.values(rows),
      IDEMPOTENCY_TTL_HOURS,
      DUPLICATE_WINDOW_HOURS,
      JSON.stringify(settings.actions),
      version,
      settings.duplicateWindowDays,
      REASON_CODES,
    ],
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
  quality: Quality,
  /** A batch wrote webhook messages to the outbox and committed: queue their fan-out (ADR 062). */
  outboxWritten: () => void = () => {},
) {
  const committer = databaseCommitter<PartnerRow>({
    pool,
    name: 'partner leads',
    write: (rows) => writePartnerLeads(pool, quality, rows, outboxWritten),
    busyMessage: 'Too many leads right now. Please try again.',
    maxBatch: 100,
    concurrency: 1,
    maxQueue: 5_000,
    keysOf: (row) => [...row.lockNames, ...row.quality.lockNames],
  });

  return {
    async create(
      partner: PartnerIdentity,
      input: PartnerLead,
      options: { idempotencyKey?: string },
    ): Promise<{ id: string; replayed: boolean; verdict?: Verdict; reasons?: ReasonCode[] }> {
      const key = options.idempotencyKey ?? '';
      const hash = requestHash(input);
      const digits = phoneDigits(input.phone);
      const lastName = input.lastName.toLowerCase();
      const locks = [`partner:dup:${partner.partnerId}:${digits}:${lastName}`];
      if (key) locks.push(`partner:idem:${partner.partnerId}:${key}`);
      const { settings } = await quality.settings.current();
      const assessment = assessPartnerLead(input, settings);
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
        quality: assessment,
        qualityLockKeys: assessment.lockNames.map(lockKey),
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
        const id = look.stored_id ?? '';
        const { rows: stored } = await pool.query<{ verdict: Verdict; reasons: ReasonCode[] }>(
          'select quality_verdict as verdict, quality_reasons as reasons from api_lead where id = $1',
          [id],
        );
        return { id, replayed: true, ...(stored[0] ?? {}) };
      }
      if (look.duplicate_id) {
        throw new AppError(
          ERROR_CODES.conflict,
          `You already sent a lead with this phone number and last name in the last ${DUPLICATE_WINDOW_HOURS} hours.`,
          undefined,
          { existingId: look.duplicate_id },
        );
      }
      return { id: row.id, replayed: false, verdict: look.verdict ?? 'accept', reasons: look.reasons ?? [] };
    },
    /** Stops taking leads and writes every queued one (graceful shutdown). */
    close: () => committer.close(),
  };
}

export type PartnerLeadWriter = ReturnType<typeof createPartnerLeadWriter>;
