import { defineEntity, p } from '@mikro-orm/core';

/** Each consent disclosure ever shown, stored once and addressed by the SHA-256 of its text. */
export const ConsentText = defineEntity({
  name: 'ConsentText',
  tableName: 'consent_text',
  properties: {
    hash: p.text().primary(),
    version: p.text(),
    body: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
