import { defineEntity, p } from '@mikro-orm/core';

export const AdminSession = defineEntity({
  name: 'AdminSession',
  tableName: 'admin_session',
  properties: {
    sid: p.text().primary(),
    data: p.json<Record<string, unknown>>(),
    /** The signed-in admin (null before sign-in): lists and ends an admin's sessions (issue 25). */
    adminId: p.uuid().nullable(),
    expiresAt: p.datetime(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
