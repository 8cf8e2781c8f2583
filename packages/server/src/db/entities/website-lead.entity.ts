import { defineEntity, p } from '@mikro-orm/core';
import type { Attribution } from '@uf/shared/attribution';
import { leadQualityProperties } from './lead-quality.properties';

export const WebsiteLead = defineEntity({
  name: 'WebsiteLead',
  tableName: 'website_lead',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => crypto.randomUUID()),
    firstName: p.text(),
    lastName: p.text(),
    email: p.text(),
    phone: p.text(),
    streetAddress: p.text(),
    zipCode: p.text(),
    state: p.string().length(2).nullable(),
    birthMonth: p.smallint(),
    birthDay: p.smallint(),
    birthYear: p.smallint(),
    consentGiven: p.boolean(),
    optInDate: p.text(),
    optInTime: p.text(),
    certificationId: p.text().nullable(),
    leadSource: p.text().default('website'),
    tcpaCompliant: p.text().default('false'),
    beneficiary: p.text().nullable(),
    ipAddress: p.text().nullable(),
    userAgent: p.text().nullable(),
    trustedFormUrl: p.text().nullable(),
    /** Set when the lead's e-mail or phone is on the suppression list. */
    optedOutAt: p.datetime().nullable(),
    /** The browser sent Global Privacy Control (Sec-GPC: 1) at submit: do not sell or share. */
    doNotSell: p.boolean().default(false),
    ownerTokenHash: p.text().nullable().hidden(),
    /** Hash of the Idempotency-Key sent with the submission: a retry of it gets this lead's id (issue 22). */
    retryKeyHash: p.text().nullable().hidden(),
    /**
     * The analytics session id the browser sent with the lead, and whether that session had a tracked
     * visit on the lead's day (issue 26: the funnel counts the visit through "lead stored").
     */
    sessionId: p.text().nullable(),
    visitTracked: p.boolean().default(false),
    // Where the visit came from (issue 15): derived channel, reported source, utm_medium, utm_campaign,
    // the visitor's country from the IP, and everything captured.
    channel: p.text().nullable(),
    source: p.text().nullable(),
    medium: p.text().nullable(),
    campaign: p.text().nullable(),
    country: p.text().nullable(),
    attribution: p.json<Attribution>().nullable(),
    ...leadQualityProperties(),
    /** The mailbox after provider normalisation (Gmail dots and +tags…): the duplicate look-up's key. */
    emailKey: p.text().nullable(),
    /** The nonce of the form token the lead came with: a token serves one lead. */
    formTokenNonce: p.text().nullable(),
    /** Issue 48: the landing experiment and arm of the page the lead was sent from (its form token says). */
    experimentId: p.uuid().nullable(),
    experimentArm: p.text().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
