import type { EntityManager } from '@mikro-orm/postgresql';
import { type Attribution, hasAttribution } from '@uf/shared/attribution';
import type { Beneficiary } from '@uf/shared/constants';
import { ERROR_CODES } from '@uf/shared/errors';
import type { LeadSubmission } from '@uf/shared/lead.schema';
import { PUBLIC_TOASTS } from '@uf/shared/messages';
import { REASON_CODES } from '@uf/shared/quality';
import type { QualityEvidence } from '@uf/shared/quality-evidence.schema';
import { DIRECT_REFERRER } from '@uf/shared/referrer';
import { stateFromZip } from '@uf/shared/zip-state';
import type { Pool } from 'pg';
import { visitAttribution } from '../analytics/visit-attribution';
import { WebsiteLead } from '../db/entities/website-lead.entity';
import { columnsOf } from '../db/entity-columns';
import { AppError } from '../errors';
import { batchInsert, databaseCommitter } from '../platform/pg-batch';
import { isUniqueViolation, lockKey } from '../platform/pg-transaction';
import { randomToken } from '../platform/random-token';
import { sha256Hex } from '../platform/sha256';
import { dateAndTimeIn } from '../platform/time';
import { CURRENT_CONSENT_TEXT, tcpaCompliantFor } from '../privacy/consent.service';
import { emailLockNameOfHash, suppressionHashes } from '../privacy/suppression.service';
import type { TokenArm } from '../quality/form-token';
import { type Assessment, assessWebsiteLead } from '../quality/lead-quality';
import type { Quality } from '../quality/quality.service';
import { verdictSql } from '../quality/verdict-sql';

export type SubmissionMeta = {
  ipAddress: string | null;
  userAgent: string | null;
  /** Chromium's client-hint brand list (headless Chromium names itself there too). */
  secChUa?: string | undefined;
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
  /** The browser's analytics session id (issue 26), to count the lead in its visit's funnel. */
  sessionId?: string | null;
  /**
   * What identifies the visitor to a retry of this submission (issue 22): the lead-owner cookie it
   * already holds, and the Idempotency-Key its browser sent. Either one, with the same e-mail within
   * 24 hours, gets the original lead's id instead of 409.
   */
  retry?: { ownerToken?: string; idempotencyKey?: string };
  now?: Date;
};

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
  emailHash: string;
  phoneHash: string;
  ownerTokenHash: string;
  retryKeyHash: string | null;
  channel: string;
  source: string;
  attribution: string | null;
  /** The quality checks made before the batch (issue 33); the statement adds what needs other leads. */
  quality: Assessment;
  /** The batch's advisory-lock keys for this lead (bigint as text): its e-mail's and its look-ups'. */
  lockKeys: string[];
  /** Issue 48: the landing experiment's arm the page was served in, as its genuine form token says. */
  tokenArm: TokenArm | null;
};

/** The submission as its shared schemas parse it: the form's fields, the evidence and the quality fields. */
export type WebsiteSubmission = LeadSubmission & Partial<QualityEvidence> & { sessionId?: string };

/**
 * The leads as the statement's input rows, one array parameter per column: the columns of website_lead
 * with where their values come from (ADR 064), then what the statement needs besides (the receipt's own
 * values, the lock and suppression keys).
 */
const LEAD_INSERT = batchInsert(columnsOf(WebsiteLead)).from<LeadRow>(
  {
    // The submission's fields go to the columns of the same names (first name, e-mail, ZIP code, consent…).
    id: (r) => r.id,
    state: (r) => stateFromZip(r.input.zipCode),
    birthMonth: (r) => Number(r.input.birthMonth),
    birthDay: (r) => Number(r.input.birthDay),
    birthYear: (r) => Number(r.input.birthYear),
    optInDate: (r) => r.date,
    optInTime: (r) => r.time,
    // The consent receipt's id certifies the lead.
    certificationId: { sql: 'receipt_id::text' },
    leadSource: { sql: "'website'" },
    tcpaCompliant: (r) => r.tcpaCompliant,
    // Named later, by the browser holding the owner token.
    beneficiary: null,
    ipAddress: (r) => r.meta.ipAddress,
    userAgent: (r) => r.meta.userAgent,
    trustedFormUrl: (r) => r.meta.trustedFormUrl,
    // When the e-mail or phone was suppressed, read after the batch took the e-mail's lock (look CTE).
    optedOutAt: { sql: 'judged.suppressed_since' },
    doNotSell: { sql: 'gpc' },
    ownerTokenHash: (r) => r.ownerTokenHash,
    retryKeyHash: (r) => r.retryKeyHash,
    sessionId: (r) => r.meta.sessionId ?? null,
    // Issue 26: the session's visit of that day, if tracked (the lead rollup trigger marks it).
    visitTracked: {
      sql: 'exists (select 1 from analytics_visit v where v.day = opt_in_date::date and v.session_id = input.session_id)',
    },
    channel: (r) => r.channel,
    source: (r) => r.source,
    medium: (r) => r.meta.attribution.utm_medium ?? null,
    campaign: (r) => r.meta.attribution.utm_campaign ?? null,
    attribution: (r) => r.attribution,
    country: (r) => r.meta.country,
    createdAt: (r) => r.createdAt,
    updatedAt: { sql: 'created_at' },
    // Lead quality (issue 33): the codes found before the batch and by its look-ups (the judged CTE).
    qualityVerdict: { sql: verdictSql('judged.codes', '$ACTIONS') },
    qualityReasons: { sql: 'judged.codes' },
    qualitySignals: { sql: 'judged.signals' },
    qualityDecidedBy: { sql: "'rules'" },
    qualityDecidedAt: { sql: 'created_at' },
    qualityRulesVersion: { sql: '$VERSION::int' },
    phoneE164: (r) => r.quality.phoneE164,
    emailKey: (r) => r.quality.emailKey,
    formTokenNonce: (r) => r.quality.tokenNonce,
    experimentId: (r) => r.tokenArm?.experimentId ?? null,
    experimentArm: (r) => r.tokenArm?.arm ?? null,
  },
  [
    ['receipt_id', 'uuid', (r) => r.receiptId],
    ['page_url', 'text', (r) => r.meta.pageUrl],
    ['gpc', 'boolean', (r) => r.meta.gpc],
    ['email_hash', 'text', (r) => r.emailHash],
    ['phone_hash', 'text', (r) => r.phoneHash],
    ['quality_codes', 'text', (r) => `{${r.quality.codes.join(',')}}`],
    ['quality_signals', 'jsonb', (r) => JSON.stringify(r.quality.signals)],
    ['lock_keys', 'text', (r) => `{${r.lockKeys.join(',')}}`],
    ['phone_look', 'text', (r) => r.quality.lookKeys.phone],
    ['email_look', 'text', (r) => r.quality.lookKeys.email],
  ],
  { ordinality: true },
);
/** The disclosure's parameters, then the quality settings in force, after the input's. */
const [TEXT_HASH, TEXT_VERSION, TEXT_BODY, ACTIONS, VERSION, WINDOW_DAYS, PER_10_MINUTES, PER_DAY, CODES] = [
  0, 1, 2, 3, 4, 5, 6, 7, 8,
].map((i) => `$${LEAD_INSERT.next + i}`);
const LEAD_SELECT = LEAD_INSERT.select()
  .replaceAll('$ACTIONS', ACTIONS ?? '')
  .replaceAll('$VERSION', VERSION ?? '');
// One statement per batch (ADR 030, ADR 051): the disclosure text (first use), the leads and their
// receipts, so one transaction holds a lead with its receipt or neither. Each lead is flagged when its
// e-mail or phone is already suppressed, looked up by website_lead_look_batch() after it takes every
// lock of the batch (sorted, so two batches never wait for each other in a circle), the e-mails' among
// them, which an opt-out of the same address also takes (held until the batch commits).
const SUBMIT_SQL = `
  with input as (
    select * from ${LEAD_INSERT.from}
  ), look as materialized (
    -- Lead quality (issue 33, ADR 065) and suppression: the batch's look-ups in one call, after the
    -- locks of all its leads' keys and e-mails; leads of this batch from the same address count as well
    -- (they cannot see each other's rows yet).
    select i.id, l.dup_phone, l.dup_email, l.ip_10m, l.ip_24h, l.token_lead, l.suppressed_since,
      count(*) over (partition by i.ip_address order by i.ord rows between unbounded preceding and 1 preceding)
        as batch_ip
    from (
      select array_agg(ord) as ords, array_agg(phone_look) as phones, array_agg(email_look) as emails,
        array_agg(ip_address) as ips, array_agg(form_token_nonce) as nonces,
        array_agg(email_hash) as email_hashes, array_agg(phone_hash) as phone_hashes,
        (select array_agg(k) from input, unnest(lock_keys::bigint[]) k) as lock_keys
      from input
    ) b
    cross join lateral website_lead_look_batch(b.ords, b.lock_keys, b.phones, b.emails, b.ips, b.nonces,
      b.email_hashes, b.phone_hashes, ${WINDOW_DAYS}::int, ${PER_10_MINUTES}::int, ${PER_DAY}::int) l
    join input i using (ord)
  ), judged as (
    select i.id, l.suppressed_since,
      array(select c from unnest(i.quality_codes::text[]
        || case when l.dup_phone is not null then '{DUPLICATE_PHONE}'::text[] else '{}' end
        || case when l.dup_email is not null then '{DUPLICATE_EMAIL_ALIAS}'::text[] else '{}' end
        || case when coalesce(l.ip_10m, 0) + l.batch_ip >= ${PER_10_MINUTES}::int
                  or coalesce(l.ip_24h, 0) + l.batch_ip >= ${PER_DAY}::int
             then '{VELOCITY_IP}'::text[] else '{}' end
        || case when l.token_lead is not null then '{BOT_TOKEN_REUSED}'::text[] else '{}' end) c
        order by array_position(${CODES}::text[], c)) as codes,
      i.quality_signals || jsonb_strip_nulls(jsonb_build_object(
        'duplicatePhoneIds', l.dup_phone, 'duplicateEmailIds', l.dup_email,
        'ipLast10Minutes', case when i.ip_address is not null then coalesce(l.ip_10m, 0) + l.batch_ip end,
        'ipLast24Hours', case when i.ip_address is not null then coalesce(l.ip_24h, 0) + l.batch_ip end,
        'tokenUsedBy', l.token_lead)) as signals
    from input i join look l using (id)
  ), consent_text_row as (
    insert into consent_text (hash, version, body) values (${TEXT_HASH}, ${TEXT_VERSION}, ${TEXT_BODY})
    on conflict (hash) do nothing
  ), lead as (
    insert into ${LEAD_INSERT.into}
    select ${LEAD_SELECT}
    from input join judged using (id)
    returning id, state, attribution->>'utm_source' as utm_source, opted_out_at, quality_verdict
  ), receipt as (
    insert into consent_receipt (id, lead_id, consent_given, consent_text_hash, consent_text_version,
      ip_address, user_agent, page_url, trusted_form_url, gpc, attribution, experiment_id, experiment_arm,
      experiment_content_hash, created_at)
    select i.receipt_id, lead.id, i.consent_given, ${TEXT_HASH}, ${TEXT_VERSION}, i.ip_address, i.user_agent,
      i.page_url, i.trusted_form_url, i.gpc, i.attribution, i.experiment_id, i.experiment_arm,
      -- Issue 48: the hash of the arm's content as it was served (frozen once the experiment started).
      (select a->>'contentHash' from experiment e cross join jsonb_array_elements(e.arms) a
        where e.id = i.experiment_id and a->>'key' = i.experiment_arm),
      i.created_at
    from lead join input i using (id)
  )
  -- The batch's webhook messages (ADR 062), in the same statement: a lead is never acknowledged
  -- without them. One outbox row per batch (its fan-out job is queued after the commit); a lead already
  -- opted out is sent nowhere, and only an accepted lead leaves (issue 33: a held one goes when released).
  select webhook_enqueue('lead.created', 'website', array_agg(id), array_agg(state::text), array_agg(utm_source),
    false) as queued
  from lead where opted_out_at is null and quality_verdict = 'accept'`;

async function writeLeads(
  pool: Pool,
  quality: Quality,
  rows: LeadRow[],
  outboxWritten: () => void,
): Promise<void> {
  const text = CURRENT_CONSENT_TEXT;
  const { settings, version } = await quality.settings.current();
  // Named: each connection parses and plans the statement once, then only binds values (ADR 051).
  const { rows: result } = await pool.query<{ queued: number }>({
    name: 'website_lead_submit_batch',
    text: SUBMIT_SQL,
    values: [
      ...LEAD_INSERT.values(rows),
      text.hash,
      text.version,
      text.body,
      JSON.stringify(settings.actions),
      version,
      settings.duplicateWindowDays,
      settings.velocity.per10Minutes,
      settings.velocity.perDay,
      REASON_CODES,
    ],
  });
  if ((result[0]?.queued ?? 0) > 0) outboxWritten();
}

/**
 * Stores website leads with their consent receipts by group commit (issue 14): submissions that arrive
 * while a batch is being written go together in the next statement, and each answer comes only after
 * the commit of the batch holding its lead. A refused lead (its e-mail already taken) costs the others
 * nothing: the batch is retried one lead at a time. The owner token lets only the submitting browser
 * set the beneficiary.
 */
export function createLeadSubmitter(
  pool: Pool,
  /** Lead quality (issue 33): the settings in force, the form tokens and the clock they are read by. */
  quality: Quality,
  /** A batch wrote webhook messages to the outbox and committed: queue their fan-out (ADR 062). */
  outboxWritten: () => void = () => {},
) {
  const committer = databaseCommitter<LeadRow>({
    pool,
    name: 'website leads',
    write: (rows) => writeLeads(pool, quality, rows, outboxWritten),
    rowRejected: (err) =>
      isUniqueViolation(err, 'website_lead_email_unique')
        ? new AppError(ERROR_CODES.duplicateEmail, PUBLIC_TOASTS.duplicateEmail.message)
        : (err as Error),
    busyMessage: 'Too many submissions right now. Please try again.',
    maxBatch: 100,
    // One writer, larger batches: 0.81 of the one-INSERT baseline against 0.62–0.68 with two writers and
    // 0.69 with four (ADR 051).
    concurrency: 1,
    maxQueue: 5_000,
    // Leads that share a look-up key (a phone, a mailbox, a form token) go in different batches: each must
    // see the one before it committed (ten at once with one phone: one accepted).
    keysOf: (row) => row.quality.lockNames,
  });

  return {
    async submit(
      input: WebsiteSubmission,
      meta: SubmissionMeta,
    ): Promise<{ id: string; ownerToken: string }> {
      const now = meta.now ?? new Date();
      const { date, time } = dateAndTimeIn(now, meta.timeZone);
      const ownerToken = randomToken(32);
      const hashes = suppressionHashes({ email: input.email, phone: input.phone });
      const visit = visitAttribution(meta.attribution, DIRECT_REFERRER, meta.host);
      const [{ settings }, tokens] = await Promise.all([quality.settings.current(), quality.formTokens()]);
      const token = tokens.check(input.formToken, quality.clock());
      const assessment = assessWebsiteLead(
        input,
        {
          formToken: input.formToken,
          referenceCode: input.referenceCode,
          automation: input.automation ?? false,
        },
        {
          token,
          userAgent: meta.userAgent,
          secChUa: meta.secChUa,
          settings,
        },
      );
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
        emailHash: hashes.email,
        phoneHash: hashes.phone,
        ownerTokenHash: sha256Hex(ownerToken),
        retryKeyHash: meta.retry?.idempotencyKey ? sha256Hex(meta.retry.idempotencyKey) : null,
        channel: visit.channel,
        source: visit.source,
        attribution: hasAttribution(meta.attribution) ? JSON.stringify(meta.attribution) : null,
        quality: assessment,
        lockKeys: [emailLockNameOfHash(hashes.email), ...assessment.lockNames].map(lockKey),
        tokenArm: token.arm ?? null,
      };
      try {
        await committer.push(row);
      } catch (err) {
        const original =
          err instanceof AppError && err.code === ERROR_CODES.duplicateEmail && meta.retry
            ? await findRetried(pool, input, meta.retry)
            : undefined;
        if (!original) throw err;
        return original;
      }
      return { id: row.id, ownerToken };
    },
    /** Stops taking submissions and writes every queued one (graceful shutdown). */
    close: () => committer.close(),
  };
}

export type LeadSubmitter = ReturnType<typeof createLeadSubmitter>;

/** How long a retry of a submission is answered with the original lead (the owner cookie lives as long). */
export const RETRY_WINDOW_HOURS = 24;

/**
 * The lead a retried submission already stored: the same lead (e-mail, name, address, phone and birth
 * date), within the window, from the same visitor — it holds the lead's owner cookie, or sent the same
 * Idempotency-Key. Found by its key only, the lead gets a new owner token (the one in the lost answer never
 * arrived), so this browser can still name the beneficiary. Anyone else with that e-mail, and this browser
 * sending another person's details with it, still gets the spec's 409 duplicate_email (§8).
 */
async function findRetried(
  pool: Pool,
  lead: LeadSubmission,
  retry: NonNullable<SubmissionMeta['retry']>,
): Promise<{ id: string; ownerToken: string } | undefined> {
  const ownerHash = retry.ownerToken ? sha256Hex(retry.ownerToken) : null;
  const keyHash = retry.idempotencyKey ? sha256Hex(retry.idempotencyKey) : null;
  const { rows } = await pool.query<{ id: string; owner_token_hash: string | null }>(
    `select id, owner_token_hash from website_lead
     where lower(email) = lower($1) and created_at > now() - make_interval(hours => $4)
       and (owner_token_hash = $2 or retry_key_hash = $3)
       and first_name = $5 and last_name = $6 and street_address = $7 and zip_code = $8 and phone = $9
       and birth_month = $10::int and birth_day = $11::int and birth_year = $12::int`,
    [
      lead.email,
      ownerHash,
      keyHash,
      RETRY_WINDOW_HOURS,
      lead.firstName,
      lead.lastName,
      lead.streetAddress,
      lead.zipCode,
      lead.phone,
      lead.birthMonth,
      lead.birthDay,
      lead.birthYear,
    ],
  );
  const found = rows[0];
  if (!found) return undefined;
  if (retry.ownerToken && found.owner_token_hash === ownerHash)
    return { id: found.id, ownerToken: retry.ownerToken };
  const ownerToken = randomToken(32);
  await pool.query('update website_lead set owner_token_hash = $2 where id = $1', [
    found.id,
    sha256Hex(ownerToken),
  ]);
  return { id: found.id, ownerToken };
}

/** What the public flow may read back: the id and the derived state, nothing personal. */
export async function getPublicLead(em: EntityManager, id: string) {
  const lead = await em.findOne(WebsiteLead, { id }, { fields: ['id', 'state'] });
  if (!lead) throw new AppError(ERROR_CODES.notFound, 'Lead not found');
  return { id: lead.id, state: lead.state ?? null };
}

/**
 * Sets the beneficiary when the caller holds the lead's owner token; otherwise 404 (no existence oracle).
 * The `lead.beneficiary_updated` deliveries are queued in the same statement (ADR 062).
 */
export async function setBeneficiary(
  pool: Pool,
  id: string,
  beneficiary: Beneficiary,
  ownerToken: string | undefined,
) {
  if (!ownerToken) throw new AppError(ERROR_CODES.notFound, 'Lead not found');
  const { rows } = await pool.query<{ updated: number }>(
    `with u as (
       update website_lead set beneficiary = $3, updated_at = now()
       where id = $1 and owner_token_hash = $2
       returning id, state, attribution->>'utm_source' as utm_source, opted_out_at, quality_verdict
     )
     select (select count(*)::int from u) as updated,
       webhook_enqueue('lead.beneficiary_updated', 'website', array_agg(id), array_agg(state::text),
         array_agg(utm_source))
     -- Only a lead that was sent on gets its update (issue 33: a held or rejected lead went nowhere).
     from u where opted_out_at is null and quality_verdict = 'accept'`,
    [id, sha256Hex(ownerToken), beneficiary],
  );
  if (!rows[0]?.updated) throw new AppError(ERROR_CODES.notFound, 'Lead not found');
  return { id, beneficiary };
}
