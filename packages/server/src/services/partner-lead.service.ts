import type { EntityManager } from '@mikro-orm/postgresql';
import { phoneDigits } from '@uf/shared/data-request.schema';
import { ERROR_CODES } from '@uf/shared/errors';
import type { PartnerLead } from '@uf/shared/partner.schema';
import { AppError } from '../errors';
import { createApiLead } from './api-lead.service';
import { sha256Hex } from './consent.service';
import type { PartnerIdentity } from './partner-key.service';
import { suppressedSince } from './suppression.service';

// POST /api/partner/leads (ADR 032): idempotent by Idempotency-Key, one lead per partner, phone and last
// name per 24 hours. Both rules hold under concurrency because each takes a transaction-scoped
// advisory lock before it looks.

export const DUPLICATE_WINDOW_HOURS = 24;
export const IDEMPOTENCY_TTL_HOURS = 24;

/** Same fields, same values → same hash, whatever the key order of the JSON the partner sent. */
function requestHash(input: PartnerLead): string {
  const sorted = Object.fromEntries(Object.entries(input).sort(([a], [b]) => a.localeCompare(b)));
  return sha256Hex(JSON.stringify(sorted));
}

export async function createPartnerLead(
  em: EntityManager,
  partner: PartnerIdentity,
  input: PartnerLead,
  options: { idempotencyKey?: string },
): Promise<{ id: string; replayed: boolean }> {
  const key = options.idempotencyKey;
  const hash = requestHash(input);
  return em.transactional(async (tx) => {
    if (key) {
      await tx.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [
        `idem:${partner.partnerId}:${key}`,
      ]);
      await tx.execute(
        `delete from partner_idempotency where partner_id = ? and idempotency_key = ?
         and created_at < now() - make_interval(hours => ?)`,
        [partner.partnerId, key, IDEMPOTENCY_TTL_HOURS],
      );
      const stored = await tx.execute<{ request_hash: string; response_body: { id: string } }[]>(
        'select request_hash, response_body from partner_idempotency where partner_id = ? and idempotency_key = ?',
        [partner.partnerId, key],
      );
      const previous = stored[0];
      if (previous) {
        if (previous.request_hash !== hash) {
          throw new AppError(
            ERROR_CODES.unprocessable,
            'This Idempotency-Key was already used for a different request. Use a new key for a new lead.',
          );
        }
        return { id: previous.response_body.id, replayed: true };
      }
    }

    const digits = phoneDigits(input.phone);
    await tx.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [
      `dup:${partner.partnerId}:${digits}:${input.lastName.toLowerCase()}`,
    ]);
    const duplicates = await tx.execute<{ id: string }[]>(
      `select id from api_lead
       where partner_id = ? and phone_digits(phone) = ? and lower(last_name) = lower(?)
         and created_at > now() - make_interval(hours => ?)
       order by created_at desc limit 1`,
      [partner.partnerId, digits, input.lastName, DUPLICATE_WINDOW_HOURS],
    );
    const existing = duplicates[0];
    if (existing) {
      throw new AppError(
        ERROR_CODES.conflict,
        `You already sent a lead with this phone number and last name in the last ${DUPLICATE_WINDOW_HOURS} hours.`,
        undefined,
        { existingId: existing.id },
      );
    }

    const { id } = await createApiLead(tx, {
      ...input,
      beneficiary: input.beneficiary ?? null,
      trustedFormUrl: input.trustedFormUrl ?? null,
      partnerId: partner.partnerId,
      optedOutAt: await suppressedSince(tx, { phone: input.phone }),
    });
    if (key) {
      await tx.execute(
        `insert into partner_idempotency (partner_id, idempotency_key, request_hash, response_status, response_body)
         values (?, ?, ?, 201, ?::jsonb)`,
        [partner.partnerId, key, hash, JSON.stringify({ id })],
      );
    }
    return { id, replayed: false };
  });
}
