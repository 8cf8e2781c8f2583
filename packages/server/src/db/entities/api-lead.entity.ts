import { defineEntity, p } from '@mikro-orm/core';

export const ApiLead = defineEntity({
  name: 'ApiLead',
  tableName: 'api_lead',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => crypto.randomUUID()),
    firstName: p.text(),
    lastName: p.text(),
    streetAddress: p.text(),
    city: p.text(),
    state: p.string().length(2),
    phone: p.text(),
    birthMonth: p.smallint(),
    birthDay: p.smallint(),
    birthYear: p.smallint(),
    beneficiary: p.text().nullable(),
    trustedFormUrl: p.text().nullable(),
    /** The partner whose API key sent the lead. */
    partnerId: p.uuid().nullable(),
    /** Set when the lead's phone is on the suppression list. */
    optedOutAt: p.datetime().nullable(),
    // Lead quality (issue 33, ADR 065): the verdict, its reason codes and the signals behind them, who
    // decided (the rules, or an admin's user name), when, and the rules version in force.
    qualityVerdict: p.text().default('accept'),
    qualityReasons: p.array().default([]),
    qualitySignals: p.json<Record<string, unknown>>().nullable(),
    qualityDecidedBy: p.text().default('rules'),
    qualityDecidedAt: p.datetime().nullable(),
    qualityRulesVersion: p.integer().default(0),
    /** The phone as E.164 when it parses as a US number: the duplicate look-up's key. */
    phoneE164: p.text().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
