import { defineEntity, p } from '@mikro-orm/core';
import type { Attribution } from '@uf/shared/attribution';

/** Proof of consent for one website lead; written with the lead, never updated (database trigger). */
export const ConsentReceipt = defineEntity({
  name: 'ConsentReceipt',
  tableName: 'consent_receipt',
  properties: {
    id: p.uuid().primary(),
    leadId: p.uuid(),
    consentGiven: p.boolean(),
    consentTextVersion: p.text(),
    consentTextHash: p.text(),
    ipAddress: p.text().nullable(),
    userAgent: p.text().nullable(),
    pageUrl: p.text().nullable(),
    trustedFormUrl: p.text().nullable(),
    gpc: p.boolean(),
    /** UTM parameters, click ids and landing referrer (issue 15). */
    attribution: p.json<Attribution>().nullable(),
    /** Issue 48: the experiment and arm the page was served in, and the hash of that arm's content. */
    experimentId: p.uuid().nullable(),
    experimentArm: p.text().nullable(),
    experimentContentHash: p.text().nullable(),
    createdAt: p.datetime(),
  },
});
