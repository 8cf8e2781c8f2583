import { ERROR_CODES } from '@uf/shared/errors';
import {
  IDEMPOTENCY_KEY_MESSAGE,
  IDEMPOTENCY_KEY_PATTERN,
  partnerLeadSchema,
} from '@uf/shared/partner.schema';
import { partnerLeadAnswerSchema } from '@uf/shared/quality.output';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { parse } from 'zod/v4/core';
import { AppError } from '../errors';
import { authenticatePartner } from '../partners/partner-key.service';
import { hitRateLimit } from '../platform/rate-limit.service';
import type { Context } from './context';
import { mutationOf, operation, restAt, router } from './trpc';

export const PARTNER_RATE_WINDOW_SECONDS = 60;

/** A partner's Bearer key, counted against that key's per-minute limit (shared by every replica). */
async function authorizePartner(ctx: Context) {
  const pool = ctx.services.db.pool;
  let partner: Awaited<ReturnType<typeof authenticatePartner>>;
  try {
    partner = await authenticatePartner(pool, ctx.req.headers.authorization);
  } catch (err) {
    ctx.reply.header('www-authenticate', 'Bearer realm="partner-api"');
    throw err;
  }
  const limit = ctx.config.partnerRateLimitPerMinute;
  const hit = await hitRateLimit(pool, `partner:key:${partner.keyId}`, limit, PARTNER_RATE_WINDOW_SECONDS);
  ctx.reply.header('ratelimit-limit', String(limit));
  ctx.reply.header('ratelimit-remaining', String(Math.max(0, limit - hit.count)));
  if (!hit.allowed) {
    ctx.reply.header('retry-after', String(hit.retryAfterSeconds));
    throw new AppError(
      ERROR_CODES.rateLimited,
      `This API key may send ${limit} requests a minute. Retry after ${hit.retryAfterSeconds} seconds.`,
    );
  }
  return partner;
}

function idempotencyKeyOf(req: FastifyRequest): string | undefined {
  const raw = req.headers['idempotency-key'];
  if (raw === undefined) return undefined;
  const value = Array.isArray(raw) ? raw.join(',') : raw;
  if (!IDEMPOTENCY_KEY_PATTERN.test(value)) {
    throw new AppError(ERROR_CODES.validation, IDEMPOTENCY_KEY_MESSAGE, [
      { field: 'Idempotency-Key', message: IDEMPOTENCY_KEY_MESSAGE },
    ]);
  }
  return value;
}

/** POST /api/partner/leads. The key is checked before the body is validated: no key, no details. */
export const createPartnerLeadOperation = operation(z.unknown(), async (ctx, raw) => {
  const partner = await authorizePartner(ctx);
  const input = parse(partnerLeadSchema, raw);
  const idempotencyKey = idempotencyKeyOf(ctx.req);
  const { id, replayed, verdict, reasons } = await ctx.services.partnerLeads.create(partner, input, {
    idempotencyKey,
  });
  if (replayed) ctx.reply.header('idempotent-replayed', 'true');
  // Issue 33: the lead's quality verdict and its reasons (a replay answers the lead's verdict now).
  return verdict ? { id, verdict, reasons } : { id };
});

export function createPartnerRouter() {
  return router({
    // Partner API (issue 6): Bearer API key, Idempotency-Key, problem+json errors.
    createLead: mutationOf(
      createPartnerLeadOperation,
      // Its input is `z.unknown()`: the body it parses (and documents) is partnerLeadSchema.
      { ...restAt('POST', '/api/partner/leads', { status: 201, problem: true }), parses: partnerLeadSchema },
      partnerLeadAnswerSchema,
    ),
  });
}
