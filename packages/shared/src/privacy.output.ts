import { z } from 'zod';
import { count, flag, instant, nullableText, text, uuid } from './output-fields';

// What the opt-out, consent receipt and data subject requests answer (issue 23: their procedures'
// `.output()`).

export const unsubscribedSchema = z.object({ ok: z.literal(true), message: text() });

export const consentReceiptSchema = z
  .object({
    id: uuid('The lead’s certificationId'),
    leadId: uuid(),
    consentGiven: flag(),
    createdAt: instant(),
    ipAddress: nullableText('Client address (forwarded headers only from TRUST_PROXY proxies)'),
    userAgent: nullableText(),
    pageUrl: nullableText(),
    trustedFormUrl: nullableText(),
    gpc: flag('The browser sent Global Privacy Control (Sec-GPC: 1)'),
    tcpaCompliant: text(),
    attribution: z
      .record(z.string(), z.string())
      .nullable()
      .describe('UTM parameters, ad click ids and landing referrer of the visit that gave the consent'),
    consentText: z.object({
      version: text(),
      hash: text('SHA-256 of the text'),
      body: text('The exact disclosure'),
    }),
  })
  .meta({ id: 'ConsentReceipt' });

/** Everything held for a person: every exported column of their rows (ADR 064), and suppression entries. */
export const personalDataSchema = z
  .object({
    // Every exported column of each row (the entity's, ADR 064): the fields named here, and the others
    // as they are (a loose object keeps what it does not name).
    websiteLeads: z.array(
      z
        .looseObject({
          id: uuid(),
          firstName: text(),
          lastName: text(),
          email: text(),
          phone: text(),
          createdAt: instant(),
        })
        .describe('Every column of the website lead but its secrets and what analytics derive'),
    ),
    apiLeads: z.array(
      z
        .looseObject({
          id: uuid(),
          firstName: text(),
          lastName: text(),
          phone: text(),
          partner: nullableText('Name of the partner whose API key sent it'),
          createdAt: instant(),
        })
        .describe('Every column of the API lead, and the name of its partner'),
    ),
    consentReceipts: z.array(
      z
        .looseObject({ id: uuid(), leadId: uuid(), consentText: text('The exact disclosure') })
        .describe('Every column of the receipt, and the text the person consented to'),
    ),
    suppression: z.array(
      z.object({ kind: text().meta({ enum: ['email', 'phone'] }), source: text(), createdAt: instant() }),
    ),
  })
  .meta({ id: 'PersonalData', description: 'Everything held for the e-mail address or phone number' });

/** The lookup: the records and how many of each. */
export const personalDataLookupSchema = z.intersection(
  personalDataSchema,
  z.object({
    counts: z.object({
      websiteLeads: count(),
      apiLeads: count(),
      consentReceipts: count(),
      suppression: count(),
    }),
  }),
);

/** The export: the records as one document for the person. */
export const personalDataExportSchema = z.intersection(
  z.object({
    generatedAt: instant(),
    subject: z
      .object({ email: nullableText(), phone: nullableText() })
      .describe('The e-mail address and phone number asked about'),
  }),
  personalDataSchema,
);

export const personalDataDeletedSchema = z.object({
  deleted: z.object({ websiteLeads: count(), apiLeads: count(), consentReceipts: count() }),
  suppressed: z.object({ email: flag(), phone: flag() }),
});
