import { defineEntity, p } from '@mikro-orm/core';

// Daily rollups of visitor events, one narrow table per dimension (ADR 020). Kept current by the
// ingester in the same transaction as each batch and read with plain SQL by the dashboard.

export const AnalyticsDailyType = defineEntity({
  name: 'AnalyticsDailyType',
  tableName: 'analytics_daily_type',
  primaryKeys: ['day', 'eventType'],
  properties: {
    day: p.date().primary(),
    eventType: p.text().primary(),
    count: p.bigint(),
  },
});

export const AnalyticsDailyCountry = defineEntity({
  name: 'AnalyticsDailyCountry',
  tableName: 'analytics_daily_country',
  primaryKeys: ['day', 'eventType', 'country'],
  properties: {
    day: p.date().primary(),
    eventType: p.text().primary(),
    country: p.text().primary(),
    count: p.bigint(),
  },
});

export const AnalyticsDailyReferrer = defineEntity({
  name: 'AnalyticsDailyReferrer',
  tableName: 'analytics_daily_referrer',
  primaryKeys: ['day', 'eventType', 'referrer'],
  properties: {
    day: p.date().primary(),
    eventType: p.text().primary(),
    referrer: p.text().primary(),
    count: p.bigint(),
  },
});

export const AnalyticsDailyCountryReferrer = defineEntity({
  name: 'AnalyticsDailyCountryReferrer',
  tableName: 'analytics_daily_country_referrer',
  primaryKeys: ['country', 'day', 'eventType', 'referrer'],
  properties: {
    country: p.text().primary(),
    day: p.date().primary(),
    eventType: p.text().primary(),
    referrer: p.text().primary(),
    count: p.bigint(),
  },
});

// Monthly companions (month = first day of the month): whole months of a range are read here.

export const AnalyticsMonthlyCountry = defineEntity({
  name: 'AnalyticsMonthlyCountry',
  tableName: 'analytics_monthly_country',
  primaryKeys: ['month', 'eventType', 'country'],
  properties: {
    month: p.date().primary(),
    eventType: p.text().primary(),
    country: p.text().primary(),
    count: p.bigint(),
  },
});

export const AnalyticsMonthlyReferrer = defineEntity({
  name: 'AnalyticsMonthlyReferrer',
  tableName: 'analytics_monthly_referrer',
  primaryKeys: ['month', 'eventType', 'referrer'],
  properties: {
    month: p.date().primary(),
    eventType: p.text().primary(),
    referrer: p.text().primary(),
    count: p.bigint(),
  },
});

export const AnalyticsMonthlyCountryReferrer = defineEntity({
  name: 'AnalyticsMonthlyCountryReferrer',
  tableName: 'analytics_monthly_country_referrer',
  primaryKeys: ['country', 'month', 'eventType', 'referrer'],
  properties: {
    country: p.text().primary(),
    month: p.date().primary(),
    eventType: p.text().primary(),
    referrer: p.text().primary(),
    count: p.bigint(),
  },
});
