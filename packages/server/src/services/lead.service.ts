import { createHash, randomBytes } from 'node:crypto';
import { type EntityManager, UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import type { Beneficiary } from '@uf/shared/constants';
import { ERROR_CODES } from '@uf/shared/errors';
import type { LeadSubmission } from '@uf/shared/lead.schema';
import { PUBLIC_TOASTS } from '@uf/shared/messages';
import { stateFromZip } from '@uf/shared/zip-state';
import { WebsiteLead } from '../db/entities/website-lead.entity';
import { AppError } from '../errors';
import { CURRENT_CONSENT_TEXT, tcpaCompliantFor, writeConsentReceipt } from './consent.service';
import { lockEmail, suppressedSince } from './suppression.service';
import { dateAndTimeIn } from './time';

export type SubmissionMeta = {
  ipAddress: string | null;
  userAgent: string | null;
  timeZone: string;
  /** Page the form was submitted from (sent by the form, else the Referer). */
  pageUrl: string | null;
  /** TrustedForm certificate, only when TRUSTEDFORM_ENABLED. */
  trustedFormUrl: string | null;
  /** The browser sent Global Privacy Control (Sec-GPC: 1): record do-not-sell. */
  gpc: boolean;
  now?: Date;
};

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Stores a website lead and its consent receipt in one transaction (ADR 030): either both exist or
 * neither. The owner token lets only the submitting browser set the beneficiary.
 */
export async function submitLead(em: EntityManager, input: LeadSubmission, meta: SubmissionMeta) {
  const now = meta.now ?? new Date();
  const { date, time } = dateAndTimeIn(now, meta.timeZone);
  const ownerToken = randomBytes(32).toString('base64url');
  const receiptId = crypto.randomUUID();
  const evidence = {
    consentGiven: input.consentGiven,
    consentTextHash: CURRENT_CONSENT_TEXT.hash,
    ipAddress: meta.ipAddress,
    userAgent: meta.userAgent,
    pageUrl: meta.pageUrl,
  };
  try {
    const id = await em.transactional(async (tx) => {
      await lockEmail(tx, input.email);
      const optedOutAt = await suppressedSince(tx, { email: input.email, phone: input.phone });
      const lead = tx.create(WebsiteLead, {
        firstName: input.firstName,
        lastName: input.lastName,
        email: input.email,
        phone: input.phone,
        streetAddress: input.streetAddress,
        zipCode: input.zipCode,
        state: stateFromZip(input.zipCode),
        birthMonth: Number(input.birthMonth),
        birthDay: Number(input.birthDay),
        birthYear: Number(input.birthYear),
        consentGiven: input.consentGiven,
        optInDate: date,
        optInTime: time,
        certificationId: receiptId,
        leadSource: 'website',
        tcpaCompliant: tcpaCompliantFor(evidence),
        ipAddress: meta.ipAddress,
        userAgent: meta.userAgent,
        trustedFormUrl: meta.trustedFormUrl,
        optedOutAt,
        doNotSell: meta.gpc,
        ownerTokenHash: hashToken(ownerToken),
        createdAt: now,
        updatedAt: now,
      });
      await tx.flush();
      await writeConsentReceipt(tx, {
        ...evidence,
        id: receiptId,
        leadId: lead.id,
        consentTextVersion: CURRENT_CONSENT_TEXT.version,
        trustedFormUrl: meta.trustedFormUrl,
        gpc: meta.gpc,
        createdAt: now,
      });
      return lead.id;
    });
    return { id, ownerToken };
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) {
      throw new AppError(ERROR_CODES.duplicateEmail, PUBLIC_TOASTS.duplicateEmail.message);
    }
    throw err;
  }
}

/** What the public flow may read back: the id and the derived state, nothing personal. */
export async function getPublicLead(em: EntityManager, id: string) {
  const lead = await em.findOne(WebsiteLead, { id }, { fields: ['id', 'state'] });
  if (!lead) throw new AppError(ERROR_CODES.notFound, 'Lead not found');
  return { id: lead.id, state: lead.state ?? null };
}

/** Sets the beneficiary when the caller holds the lead's owner token; otherwise 404 (no existence oracle). */
export async function setBeneficiary(
  em: EntityManager,
  id: string,
  beneficiary: Beneficiary,
  ownerToken: string | undefined,
) {
  if (!ownerToken) throw new AppError(ERROR_CODES.notFound, 'Lead not found');
  const updated = await em.nativeUpdate(
    WebsiteLead,
    { id, ownerTokenHash: hashToken(ownerToken) },
    { beneficiary, updatedAt: new Date() },
  );
  if (updated === 0) throw new AppError(ERROR_CODES.notFound, 'Lead not found');
  return { id, beneficiary };
}
