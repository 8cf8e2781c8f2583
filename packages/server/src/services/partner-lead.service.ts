import { phoneDigits } from '@uf/shared/data-request.schema';
import { ERROR_CODES } from '@uf/shared/errors';
import type { PartnerLead } from '@uf/shared/partner.schema';
import type { Pool } from 'pg';
import { AppError } from '../errors';
import { sha256Hex } from './consent.service';
import type { PartnerIdentity } from './partner-key.service';
import { lockKey } from './pg-transaction';
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

export async function createPartnerLead(
  pool: Pool,
  partner: PartnerIdentity,
  input: PartnerLead,
  options: { idempotencyKey?: string },
): Promise<{ id: string; replayed: boolean }> {
  const key = options.idempotencyKey ?? '';
  const hash = requestHash(input);
  const digits = phoneDigits(input.phone);
  const lastName = input.lastName.toLowerCase();
  const hashes = suppressionHashes({ phone: input.phone });
  const locks = [`partner:dup:${partner.partnerId}:${digits}:${lastName}`];
  if (key) locks.push(`partner:idem:${partner.partnerId}:${key}`);

  const id = crypto.randomUUID();
  // One statement, one round trip: partner_lead_look() takes the locks (sorted, so two requests that
  // need the same ones take them in the same order) and then looks with a fresh snapshot; the inserts
  // happen only when both rules allow. The locks are held until the statement commits.
  const lockKeys = [...new Set(locks)].sort().map(lockKey);
  const { rows } = await pool.query<Look>({
    name: 'partner_lead_create',
    text: `with look as (
         select * from partner_lead_look($1::bigint[], $2, $3, $4, $5, $6, $7, $8)
       ), lead as (
         insert into api_lead (id, first_name, last_name, street_address, city, state, phone, birth_month,
           birth_day, birth_year, beneficiary, trusted_form_url, partner_id, opted_out_at, created_at)
         select $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $2, look.suppressed_since, now()
         from look where look.stored_hash is null and look.duplicate_id is null
         returning id
       ), stored as (
         insert into partner_idempotency (partner_id, idempotency_key, request_hash, response_status, response_body)
         select $2, $3, $21, 201, jsonb_build_object('id', lead.id) from lead where $3 <> ''
       )
       select look.stored_hash, look.stored_id, look.duplicate_id from look`,
    values: [
      lockKeys,
      partner.partnerId,
      key,
      IDEMPOTENCY_TTL_HOURS,
      digits,
      lastName,
      DUPLICATE_WINDOW_HOURS,
      hashes.phone,
      id,
      input.firstName,
      input.lastName,
      input.streetAddress,
      input.city,
      input.state,
      input.phone,
      input.birthMonth,
      input.birthDay,
      input.birthYear,
      input.beneficiary ?? null,
      input.trustedFormUrl ?? null,
      hash,
    ],
  });
  const look = rows[0] as Look;
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
  return { id, replayed: false };
}
