import { defineEntity, p } from '@mikro-orm/core';

export const AdminUser = defineEntity({
  name: 'AdminUser',
  tableName: 'admin_user',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => crypto.randomUUID()),
    username: p.text(),
    passwordHash: p.text().hidden(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
