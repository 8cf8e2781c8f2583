import { defineEntity, p } from '@mikro-orm/core';

export const RateLimitBucket = defineEntity({
  name: 'RateLimitBucket',
  tableName: 'rate_limit_bucket',
  properties: {
    key: p.text().primary(),
    windowStart: p.datetime(),
    count: p.integer(),
  },
});
