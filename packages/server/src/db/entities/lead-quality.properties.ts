import { p } from '@mikro-orm/core';

/**
 * Lead quality (issue 33, ADR 065), the same on both lead tables: the verdict, its reason codes and the
 * signals behind them, who decided (the rules, or an admin's user name), when, the rules version in
 * force, and the phone as E.164 when it parses as a US number (the duplicate look-up's key).
 */
export const leadQualityProperties = () => ({
  qualityVerdict: p.text().default('accept'),
  qualityReasons: p.array().default([]),
  qualitySignals: p.json<Record<string, unknown>>().nullable(),
  qualityDecidedBy: p.text().default('rules'),
  qualityDecidedAt: p.datetime().nullable(),
  qualityRulesVersion: p.integer().default(0),
  phoneE164: p.text().nullable(),
});
