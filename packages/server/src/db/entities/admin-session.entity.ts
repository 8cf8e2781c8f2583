import { defineEntity, p } from '@mikro-orm/core';

export const AdminSession = defineEntity({
  name: 'AdminSession',
  tableName: 'admin_session',
  properties: {
    sid: p.text().primary(),
    data: p.json<Record<string, unknown>>(),
    expiresAt: p.datetime(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
