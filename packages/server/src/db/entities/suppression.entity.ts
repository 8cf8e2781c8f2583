import { defineEntity, p } from '@mikro-orm/core';

/** An e-mail address or phone number that must not be contacted, kept only as a SHA-256 hash. */
export const Suppression = defineEntity({
  name: 'Suppression',
  tableName: 'suppression',
  properties: {
    id: p.bigint().primary().autoincrement(),
    kind: p.text(),
    valueHash: p.text(),
    source: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
