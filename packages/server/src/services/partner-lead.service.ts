import { phoneDigits } from '@uf/shared/data-request.schema';
import { ERROR_CODES } from '@uf/shared/errors';
import type { PartnerLead } from '@uf/shared/partner.schema';
import type { Pool } from 'pg';
import { AppError } from '../errors';
import { sha256Hex } from './consent.service';
import type { PartnerIdentity } from './partner-key.service';
import { inTransaction } from './pg-transaction';
import { SUPPRESSED_SINCE_SQL, suppressionHashes } from './suppression.service';

// POST /api/partner/leads (ADR 032): idempotent by Idempotency-Key, one lead per partner, phone and last
// name per 24 hours. Both rules hold under concurrency because the transaction first takes advisory
// locks on (partner, key) and on (partner, phone, last name), then looks and writes in one statement:
// BEGIN + locks, the statement, COMMIT.

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
  // One statement looks (stored answer, duplicate, suppression) and writes only when both rules allow:
  // the locks taken with BEGIN make the look and the write one atomic decision.
  const look = await inTransaction(pool, locks, async (client) => {
    const { rows } = await client.query<Look>(
      `with expired as (
         delete from partner_idempotency
         where partner_id = $1 and idempotency_key = $2 and created_at < now() - make_interval(hours => $3)
       ), look as (
         select
           (select request_hash from partner_idempotency where partner_id = $1 and idempotency_key = $2
              and created_at >= now() - make_interval(hours => $3)) as stored_hash,
           (select response_body ->> 'id' from partner_idempotency where partner_id = $1 and idempotency_key = $2
              and created_at >= now() - make_interval(hours => $3)) as stored_id,
           (select id from api_lead where partner_id = $1 and phone_digits(phone) = $4 and lower(last_name) = $5
              and created_at > now() - make_interval(hours => $6) order by created_at desc limit 1) as duplicate_id,
           (${SUPPRESSED_SINCE_SQL("''", '$7')}) as suppressed_since
       ), lead as (
         insert into api_lead (id, first_name, last_name, street_address, city, state, phone, birth_month,
           birth_day, birth_year, beneficiary, trusted_form_url, partner_id, opted_out_at, created_at)
         select $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $1, look.suppressed_since, now()
         from look where look.stored_hash is null and look.duplicate_id is null
         returning id
       ), stored as (
         insert into partner_idempotency (partner_id, idempotency_key, request_hash, response_status, response_body)
         select $1, $2, $20, 201, jsonb_build_object('id', lead.id) from lead where $2 <> ''
       )
       select look.stored_hash, look.stored_id, look.duplicate_id from look`,
      [
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
    );
    return rows[0] as Look;
  });
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
