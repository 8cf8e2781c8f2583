import { defineEntity, p } from '@mikro-orm/core';

/** One of an admin's ten single-use recovery codes, stored as a SHA-256 hash (issue 25, ADR 058). */
export const AdminRecoveryCode = defineEntity({
  name: 'AdminRecoveryCode',
  tableName: 'admin_recovery_code',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => crypto.randomUUID()),
    adminId: p.uuid(),
    codeHash: p.text().hidden(),
    usedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
