import type { EntityManager } from '@mikro-orm/postgresql';
import type { Attribution } from '@uf/shared/attribution';
import { CONSENT_TEXT, CONSENT_TEXT_VERSION } from '@uf/shared/consent';
import { ERROR_CODES } from '@uf/shared/errors';
import { ConsentReceipt } from '../db/entities/consent-receipt.entity';
import { ConsentText } from '../db/entities/consent-text.entity';
import { WebsiteLead } from '../db/entities/website-lead.entity';
import { AppError } from '../errors';
import { sha256Hex } from '../platform/sha256';

// Consent evidence per website lead (ADR 030): the receipt is written in the lead's statement
// (lead.service.ts) and a database trigger refuses any later UPDATE; the disclosure text is stored once,
// addressed by hash.

/** The disclosure the landing form shows now. */
export const CURRENT_CONSENT_TEXT = {
  version: CONSENT_TEXT_VERSION,
  body: CONSENT_TEXT,
  hash: sha256Hex(CONSENT_TEXT),
} as const;

export type ReceiptEvidence = {
  consentGiven: boolean;
  consentTextHash: string | null;
  ipAddress: string | null;
  userAgent: string | null;
  pageUrl: string | null;
};

/**
 * tcpaCompliant (spec §3, 'true' or otherwise): 'true' only when consent was given and the receipt
 * holds every piece of evidence a buyer needs to defend the lead — the exact text, the client
 * address, the browser and the page. TrustedForm is extra evidence, not a requirement.
 */
export function tcpaCompliantFor(evidence: ReceiptEvidence): 'true' | 'false' {
  const complete = Boolean(
    evidence.consentTextHash && evidence.ipAddress && evidence.userAgent && evidence.pageUrl,
  );
  return evidence.consentGiven && complete ? 'true' : 'false';
}

export type ConsentReceiptView = {
  id: string;
  leadId: string;
  consentGiven: boolean;
  /** ISO 8601, UTC: the moment the lead and its receipt were committed. */
  createdAt: string;
  ipAddress: string | null;
  userAgent: string | null;
  pageUrl: string | null;
  trustedFormUrl: string | null;
  gpc: boolean;
  tcpaCompliant: string;
  /** UTM parameters, click ids and landing referrer of the visit (issue 15); null before attribution. */
  attribution: Attribution | null;
  consentText: { version: string; hash: string; body: string };
};

/** The receipt of one website lead, with the exact disclosure text, for admins and auditors. */
export async function getConsentReceipt(em: EntityManager, leadId: string): Promise<ConsentReceiptView> {
  const receipt = await em.findOne(ConsentReceipt, { leadId });
  if (!receipt) throw new AppError(ERROR_CODES.notFound, 'No consent receipt for this lead');
  // Both rows exist: foreign keys tie the receipt to its text and to its lead.
  const text = await em.findOneOrFail(ConsentText, { hash: receipt.consentTextHash });
  const lead = await em.findOneOrFail(WebsiteLead, { id: leadId }, { fields: ['tcpaCompliant'] });
  return {
    id: receipt.id,
    leadId: receipt.leadId,
    consentGiven: receipt.consentGiven,
    createdAt: receipt.createdAt.toISOString(),
    ipAddress: receipt.ipAddress ?? null,
    userAgent: receipt.userAgent ?? null,
    pageUrl: receipt.pageUrl ?? null,
    trustedFormUrl: receipt.trustedFormUrl ?? null,
    gpc: receipt.gpc,
    tcpaCompliant: lead.tcpaCompliant,
    attribution: (receipt.attribution as Attribution | null | undefined) ?? null,
    consentText: {
      version: receipt.consentTextVersion,
      hash: receipt.consentTextHash,
      body: text.body,
    },
  };
}
