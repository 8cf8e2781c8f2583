import { defineEntity, p } from '@mikro-orm/core';

// Written in batches by the analytics ingester with plain SQL whose column names and array types come
// from this entity (ADR 064: batchInsert(columnsOf(AnalyticsEvent))). The key leads with created_at so
// the table can become time-partitioned (ADR 022). No IP address is ever stored.
export const AnalyticsEvent = defineEntity({
  name: 'AnalyticsEvent',
  tableName: 'analytics_event',
  primaryKeys: ['createdAt', 'id'],
  properties: {
    createdAt: p
      .datetime()
      .primary()
      .onCreate(() => new Date()),
    id: p.bigint().primary().autoincrement(),
    eventType: p.text(),
    page: p.text(),
    referrer: p.text(),
    referrerHost: p.text().nullable(),
    referrerUrl: p.text().nullable(),
    sessionId: p.text(),
    country: p.text().nullable(),
    // Issue 15: the day's cookieless visitor id and the visit's attribution (reporting only).
    visitorId: p.bigint().nullable(),
    channel: p.text().nullable(),
    source: p.text().nullable(),
    utmSource: p.text().nullable(),
    utmMedium: p.text().nullable(),
    utmCampaign: p.text().nullable(),
    utmTerm: p.text().nullable(),
    utmContent: p.text().nullable(),
    clickIdType: p.text().nullable(),
    // Issue 26: derived from the user agent at ingest (the user agent itself is not stored).
    deviceType: p.text().nullable(),
    browser: p.text().nullable(),
    os: p.text().nullable(),
  },
});
