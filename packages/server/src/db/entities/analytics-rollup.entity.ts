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

// Visits and attribution (issue 15, ADR 055).

/** Today's secret salt of the cookieless visitor id (older ones are deleted at rotation). */
export const AnalyticsSalt = defineEntity({
  name: 'AnalyticsSalt',
  tableName: 'analytics_salt',
  properties: {
    day: p.date().primary(),
    salt: p.blob(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

/** One visit (browser session) per day: its attribution and the funnel steps reached, as bits. */
export const AnalyticsVisit = defineEntity({
  name: 'AnalyticsVisit',
  tableName: 'analytics_visit',
  primaryKeys: ['day', 'sessionId'],
  properties: {
    day: p.date().primary(),
    sessionId: p.text().primary(),
    visitorId: p.bigint().nullable(),
    country: p.text(),
    channel: p.text(),
    source: p.text(),
    campaign: p.text(),
    referrer: p.text(),
    steps: p.smallint(),
    prevSteps: p.smallint().default(0),
  },
});

export const AnalyticsDayVisitor = defineEntity({
  name: 'AnalyticsDayVisitor',
  tableName: 'analytics_day_visitor',
  primaryKeys: ['day', 'visitorId', 'country', 'channel', 'source', 'campaign'],
  properties: {
    day: p.date().primary(),
    visitorId: p.bigint().primary(),
    country: p.text().primary(),
    channel: p.text().primary(),
    source: p.text().primary(),
    campaign: p.text().primary(),
  },
});

const sourceCounts = () => ({
  visits: p.bigint().default(0),
  visitors: p.bigint().default(0),
  pageViews: p.bigint().default(0),
  surveyStarts: p.bigint().default(0),
  formSubmits: p.bigint().default(0),
  stateClicks: p.bigint().default(0),
  // Issue 26: visits that stored a lead / answered the beneficiary question (each step counts a visit
  // at every step up to its deepest one).
  leadVisits: p.bigint().default(0),
  beneficiaryVisits: p.bigint().default(0),
});

export const AnalyticsDailySource = defineEntity({
  name: 'AnalyticsDailySource',
  tableName: 'analytics_daily_source',
  primaryKeys: ['day', 'country', 'channel', 'source', 'campaign'],
  properties: {
    day: p.date().primary(),
    country: p.text().primary(),
    channel: p.text().primary(),
    source: p.text().primary(),
    campaign: p.text().primary(),
    ...sourceCounts(),
  },
});

export const AnalyticsMonthlySource = defineEntity({
  name: 'AnalyticsMonthlySource',
  tableName: 'analytics_monthly_source',
  primaryKeys: ['month', 'country', 'channel', 'source', 'campaign'],
  properties: {
    month: p.date().primary(),
    country: p.text().primary(),
    channel: p.text().primary(),
    source: p.text().primary(),
    campaign: p.text().primary(),
    ...sourceCounts(),
  },
});

// Visits by device type, browser and operating system (issue 26), derived from the user agent at ingest.

export const AnalyticsDailyDevice = defineEntity({
  name: 'AnalyticsDailyDevice',
  tableName: 'analytics_daily_device',
  primaryKeys: ['day', 'dimension', 'value', 'country'],
  properties: {
    day: p.date().primary(),
    dimension: p.text().primary(),
    value: p.text().primary(),
    country: p.text().primary(),
    count: p.bigint().default(0),
  },
});

export const AnalyticsMonthlyDevice = defineEntity({
  name: 'AnalyticsMonthlyDevice',
  tableName: 'analytics_monthly_device',
  primaryKeys: ['month', 'dimension', 'value', 'country'],
  properties: {
    month: p.date().primary(),
    dimension: p.text().primary(),
    value: p.text().primary(),
    country: p.text().primary(),
    count: p.bigint().default(0),
  },
});
