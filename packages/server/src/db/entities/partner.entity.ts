import { defineEntity, p } from '@mikro-orm/core';

/** A company that sends API leads. */
export const Partner = defineEntity({
  name: 'Partner',
  tableName: 'partner',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => crypto.randomUUID()),
    name: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

/** A partner's API key: only its SHA-256 is stored; the key itself is shown once at creation. */
export const PartnerApiKey = defineEntity({
  name: 'PartnerApiKey',
  tableName: 'partner_api_key',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => crypto.randomUUID()),
    partnerId: p.uuid(),
    keyPrefix: p.text(),
    keyHash: p.text().hidden(),
    createdAt: p.datetime().onCreate(() => new Date()),
    lastUsedAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
  },
});

/** The stored answer of a partner request made with an Idempotency-Key (kept 24 hours). */
export const PartnerIdempotency = defineEntity({
  name: 'PartnerIdempotency',
  tableName: 'partner_idempotency',
  properties: {
    partnerId: p.uuid().primary(),
    idempotencyKey: p.text().primary(),
    requestHash: p.text(),
    responseStatus: p.smallint(),
    responseBody: p.json<Record<string, unknown>>(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
