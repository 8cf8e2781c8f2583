import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type Attribution, hasAttribution } from '@uf/shared/attribution';
import type { Beneficiary } from '@uf/shared/constants';
import { ERROR_CODES } from '@uf/shared/errors';
import type { LeadSubmission } from '@uf/shared/lead.schema';
import { PUBLIC_TOASTS } from '@uf/shared/messages';
import { DIRECT_REFERRER } from '@uf/shared/referrer';
import { stateFromZip } from '@uf/shared/zip-state';
import type { Pool } from 'pg';
import { WebsiteLead } from '../db/entities/website-lead.entity';
import { AppError } from '../errors';
import { CURRENT_CONSENT_TEXT, tcpaCompliantFor } from './consent.service';
import { isUniqueViolation, lockKey } from './pg-transaction';
import { emailLockName, suppressionHashes } from './suppression.service';
import { dateAndTimeIn } from './time';
import { visitAttribution } from './visit-attribution';

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
  /** Where the visit came from (issue 15): UTM parameters, click ids, landing referrer. */
  attribution: Attribution;
  /** The site's own host, so a referral from itself is no referral. */
  host: string | undefined;
  /** Derived from the IP the way analytics derives it; null when unknown. */
  country: string | null;
  now?: Date;
};

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Numbered parameters for hand-written SQL: `p(value)` appends the value and returns its $n. */
function params() {
  const values: unknown[] = [];
  return { values, p: (value: unknown) => `$${values.push(value)}` };
}

/**
 * Stores a website lead and its consent receipt in one statement, so one transaction and one round trip
 * (ADR 030, ADR 051): either both exist or neither. The statement writes the disclosure text (first
 * use), the lead and the receipt; the lead is flagged when its e-mail or phone is already suppressed,
 * checked by suppressed_since_locked() after it takes the e-mail's advisory lock, which an opt-out of
 * the same address also takes (held until the statement commits). The owner token lets only the
 * submitting browser set the beneficiary.
 */
export async function submitLead(pool: Pool, input: LeadSubmission, meta: SubmissionMeta) {
  const now = meta.now ?? new Date();
  const { date, time } = dateAndTimeIn(now, meta.timeZone);
  const ownerToken = randomBytes(32).toString('base64url');
  const leadId = crypto.randomUUID();
  const receiptId = crypto.randomUUID();
  const evidence = {
    consentGiven: input.consentGiven,
    consentTextHash: CURRENT_CONSENT_TEXT.hash,
    ipAddress: meta.ipAddress,
    userAgent: meta.userAgent,
    pageUrl: meta.pageUrl,
  };
  const hashes = suppressionHashes({ email: input.email, phone: input.phone });
  const visit = visitAttribution(meta.attribution, DIRECT_REFERRER, meta.host);
  const attribution = hasAttribution(meta.attribution) ? JSON.stringify(meta.attribution) : null;
  const { values, p } = params();
  const text = CURRENT_CONSENT_TEXT;
  const sql = `
    with consent_text_row as (
      insert into consent_text (hash, version, body) values (${p(text.hash)}, ${p(text.version)}, ${p(text.body)})
      on conflict (hash) do nothing
    ), lead as (
      insert into website_lead (id, first_name, last_name, email, phone, street_address, zip_code, state,
        birth_month, birth_day, birth_year, consent_given, opt_in_date, opt_in_time, certification_id,
        lead_source, tcpa_compliant, ip_address, user_agent, trusted_form_url, opted_out_at, do_not_sell,
        owner_token_hash, channel, source, medium, campaign, attribution, country, created_at, updated_at)
      values (${p(leadId)}, ${p(input.firstName)}, ${p(input.lastName)}, ${p(input.email)}, ${p(input.phone)},
        ${p(input.streetAddress)}, ${p(input.zipCode)}, ${p(stateFromZip(input.zipCode))},
        ${p(Number(input.birthMonth))}, ${p(Number(input.birthDay))}, ${p(Number(input.birthYear))},
        ${p(input.consentGiven)}, ${p(date)}, ${p(time)}, ${p(receiptId)}, 'website', ${p(tcpaCompliantFor(evidence))},
        ${p(meta.ipAddress)}, ${p(meta.userAgent)}, ${p(meta.trustedFormUrl)},
        suppressed_since_locked(${p(lockKey(emailLockName(input.email)))}, ${p(hashes.email)}, ${p(hashes.phone)}),
        ${p(meta.gpc)}, ${p(hashToken(ownerToken))}, ${p(visit.channel)}, ${p(visit.source)},
        ${p(meta.attribution.utm_medium ?? null)}, ${p(meta.attribution.utm_campaign ?? null)}, ${p(attribution)}::jsonb,
        ${p(meta.country)}, ${p(now)}, ${p(now)})
      returning id
    )
    insert into consent_receipt (id, lead_id, consent_given, consent_text_hash, consent_text_version,
      ip_address, user_agent, page_url, trusted_form_url, gpc, attribution, created_at)
    select ${p(receiptId)}, lead.id, ${p(input.consentGiven)}, ${p(text.hash)}, ${p(text.version)},
      ${p(meta.ipAddress)}, ${p(meta.userAgent)}, ${p(meta.pageUrl)}, ${p(meta.trustedFormUrl)}, ${p(meta.gpc)},
      ${p(attribution)}::jsonb, ${p(now)}
    from lead`;
  try {
    // Named: each connection parses and plans the statement once, then only binds values (ADR 051).
    await pool.query({ name: 'website_lead_submit', text: sql, values });
  } catch (err) {
    if (isUniqueViolation(err, 'website_lead_email_unique')) {
      throw new AppError(ERROR_CODES.duplicateEmail, PUBLIC_TOASTS.duplicateEmail.message);
    }
    throw err;
  }
  return { id: leadId, ownerToken };
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
