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
import { GroupCommitter } from './group-commit';
import { isRowError, isTransient, isUniqueViolation, lockKey } from './pg-transaction';
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

/** A lead and its receipt as the statement writes them, every value computed before it joins a batch. */
type LeadRow = {
  id: string;
  receiptId: string;
  input: LeadSubmission;
  meta: SubmissionMeta;
  date: string;
  time: string;
  createdAt: Date;
  tcpaCompliant: string;
  lockKey: string;
  emailHash: string;
  phoneHash: string;
  ownerTokenHash: string;
  channel: string;
  source: string;
  attribution: string | null;
};

// One statement per batch (ADR 030, ADR 051): the disclosure text (first use), the leads and their
// receipts, so one transaction holds a lead with its receipt or neither. Each lead is flagged when its
// e-mail or phone is already suppressed, checked by suppressed_since_locked() after it takes the
// e-mail's advisory lock, which an opt-out of the same address also takes (held until the batch
// commits); leads are taken in lock-key order, so two batches never wait for each other in a circle.
const LEAD_COLUMNS = `id, first_name, last_name, email, phone, street_address, zip_code, state, birth_month,
  birth_day, birth_year, consent_given, opt_in_date, opt_in_time, receipt_id, tcpa_compliant, ip_address,
  user_agent, trusted_form_url, lock_key, email_hash, phone_hash, gpc, owner_token_hash, channel, source,
  medium, campaign, attribution, country, created_at, page_url`;
const LEAD_TYPES = `uuid text text text text text text text smallint smallint smallint boolean text text uuid
  text text text text bigint text text boolean text text text text text text text timestamptz text`
  .split(/\s+/)
  .map((type, i) => `$${i + 1}::${type}[]`)
  .join(', ');
const SUBMIT_SQL = `
  with input as (
    select * from unnest(${LEAD_TYPES}) as t(${LEAD_COLUMNS})
  ), consent_text_row as (
    insert into consent_text (hash, version, body) values ($33, $34, $35) on conflict (hash) do nothing
  ), lead as (
    insert into website_lead (id, first_name, last_name, email, phone, street_address, zip_code, state,
      birth_month, birth_day, birth_year, consent_given, opt_in_date, opt_in_time, certification_id,
      lead_source, tcpa_compliant, ip_address, user_agent, trusted_form_url, opted_out_at, do_not_sell,
      owner_token_hash, channel, source, medium, campaign, attribution, country, created_at, updated_at)
    select id, first_name, last_name, email, phone, street_address, zip_code, state, birth_month, birth_day,
      birth_year, consent_given, opt_in_date, opt_in_time, receipt_id::text, 'website', tcpa_compliant,
      ip_address, user_agent, trusted_form_url, suppressed_since_locked(lock_key, email_hash, phone_hash), gpc,
      owner_token_hash, channel, source, medium, campaign, attribution::jsonb, country, created_at, created_at
    from input order by lock_key
    returning id
  )
  insert into consent_receipt (id, lead_id, consent_given, consent_text_hash, consent_text_version,
    ip_address, user_agent, page_url, trusted_form_url, gpc, attribution, created_at)
  select i.receipt_id, lead.id, i.consent_given, $33, $34, i.ip_address, i.user_agent, i.page_url,
    i.trusted_form_url, i.gpc, i.attribution::jsonb, i.created_at
  from lead join input i using (id)`;

async function writeLeads(pool: Pool, rows: LeadRow[]): Promise<void> {
  const column = (value: (r: LeadRow) => unknown) => rows.map(value);
  const text = CURRENT_CONSENT_TEXT;
  // Named: each connection parses and plans the statement once, then only binds values (ADR 051).
  await pool.query({
    name: 'website_lead_submit_batch',
    text: SUBMIT_SQL,
    values: [
      column((r) => r.id),
      column((r) => r.input.firstName),
      column((r) => r.input.lastName),
      column((r) => r.input.email),
      column((r) => r.input.phone),
      column((r) => r.input.streetAddress),
      column((r) => r.input.zipCode),
      column((r) => stateFromZip(r.input.zipCode)),
      column((r) => Number(r.input.birthMonth)),
      column((r) => Number(r.input.birthDay)),
      column((r) => Number(r.input.birthYear)),
      column((r) => r.input.consentGiven),
      column((r) => r.date),
      column((r) => r.time),
      column((r) => r.receiptId),
      column((r) => r.tcpaCompliant),
      column((r) => r.meta.ipAddress),
      column((r) => r.meta.userAgent),
      column((r) => r.meta.trustedFormUrl),
      column((r) => r.lockKey),
      column((r) => r.emailHash),
      column((r) => r.phoneHash),
      column((r) => r.meta.gpc),
      column((r) => r.ownerTokenHash),
      column((r) => r.channel),
      column((r) => r.source),
      column((r) => r.meta.attribution.utm_medium ?? null),
      column((r) => r.meta.attribution.utm_campaign ?? null),
      column((r) => r.attribution),
      column((r) => r.meta.country),
      column((r) => r.createdAt),
      column((r) => r.meta.pageUrl),
      text.hash,
      text.version,
      text.body,
    ],
  });
}

/**
 * Stores website leads with their consent receipts by group commit (issue 14): submissions that arrive
 * while a batch is being written go together in the next statement, and each answer comes only after
 * the commit of the batch holding its lead. A refused lead (its e-mail already taken) costs the others
 * nothing: the batch is retried one lead at a time. The owner token lets only the submitting browser
 * set the beneficiary.
 */
export function createLeadSubmitter(pool: Pool, options: { maxBatch?: number; concurrency?: number } = {}) {
  const committer = new GroupCommitter<LeadRow>({
    write: (rows) => writeLeads(pool, rows),
    isRowError,
    isTransient,
    rowRejected: (err) =>
      isUniqueViolation(err, 'website_lead_email_unique')
        ? new AppError(ERROR_CODES.duplicateEmail, PUBLIC_TOASTS.duplicateEmail.message)
        : (err as Error),
    unavailable: (reason) =>
      reason === 'closed'
        ? new AppError(ERROR_CODES.internal, 'The server is shutting down')
        : new AppError(ERROR_CODES.rateLimited, 'Too many submissions right now. Please try again.'),
    maxBatch: options.maxBatch ?? 100,
    // One writer, larger batches: 0.81 of the one-INSERT baseline against 0.62–0.68 with two writers and
    // 0.69 with four (ADR 051).
    concurrency: options.concurrency ?? 1,
    maxQueue: 5_000,
  });

  return {
    async submit(input: LeadSubmission, meta: SubmissionMeta): Promise<{ id: string; ownerToken: string }> {
      const now = meta.now ?? new Date();
      const { date, time } = dateAndTimeIn(now, meta.timeZone);
      const ownerToken = randomBytes(32).toString('base64url');
      const hashes = suppressionHashes({ email: input.email, phone: input.phone });
      const visit = visitAttribution(meta.attribution, DIRECT_REFERRER, meta.host);
      const row: LeadRow = {
        id: crypto.randomUUID(),
        receiptId: crypto.randomUUID(),
        input,
        meta,
        date,
        time,
        createdAt: now,
        tcpaCompliant: tcpaCompliantFor({
          consentGiven: input.consentGiven,
          consentTextHash: CURRENT_CONSENT_TEXT.hash,
          ipAddress: meta.ipAddress,
          userAgent: meta.userAgent,
          pageUrl: meta.pageUrl,
        }),
        lockKey: lockKey(emailLockName(input.email)),
        emailHash: hashes.email,
        phoneHash: hashes.phone,
        ownerTokenHash: hashToken(ownerToken),
        channel: visit.channel,
        source: visit.source,
        attribution: hasAttribution(meta.attribution) ? JSON.stringify(meta.attribution) : null,
      };
      await committer.push(row);
      return { id: row.id, ownerToken };
    },
    /** Stops taking submissions and writes every queued one (graceful shutdown). */
    close: () => committer.close(),
  };
}

export type LeadSubmitter = ReturnType<typeof createLeadSubmitter>;

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
