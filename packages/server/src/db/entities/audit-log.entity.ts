import { defineEntity, p } from '@mikro-orm/core';

export const AuditLog = defineEntity({
  name: 'AuditLog',
  tableName: 'audit_log',
  properties: {
    id: p.bigint().primary().autoincrement(),
    actor: p.text(),
    action: p.text(),
    detail: p.json<Record<string, unknown>>(),
    ipAddress: p.text().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
