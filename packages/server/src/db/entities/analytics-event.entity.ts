import { defineEntity, p } from '@mikro-orm/core';

// Written in batches by the analytics ingester with plain SQL; the entity keeps the ORM's schema
// knowledge complete (a schema diff must never think this table is foreign).
export const AnalyticsEvent = defineEntity({
  name: 'AnalyticsEvent',
  tableName: 'analytics_event',
  properties: {
    id: p.bigint().primary().autoincrement(),
    eventType: p.text(),
    page: p.text(),
    referrer: p.text(),
    referrerHost: p.text().nullable(),
    sessionId: p.text(),
    country: p.text().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
