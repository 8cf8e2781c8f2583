import { defineEntity, p } from '@mikro-orm/core';

export const AppSecret = defineEntity({
  name: 'AppSecret',
  tableName: 'app_secret',
  properties: {
    name: p.text().primary(),
    value: p.text().hidden(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
