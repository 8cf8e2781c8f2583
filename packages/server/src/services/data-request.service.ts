import { normalizeEmail, phoneDigits } from '@uf/shared/data-request.schema';
import type { Pool } from 'pg';
import { recordAudit } from './audit.service';
import { inTransaction, type Sql } from './pg-transaction';
import { addSuppression, emailHash, emailLockName, type Identifiers, phoneHash } from './suppression.service';

// Data subject requests (ADR 033): everything held for an e-mail address or phone number — website
// leads, API leads, consent receipts, suppression entries — found, exported or deleted in one action.
// Deletion keeps only the suppression entry (a hash), so the person is never contacted again.

type Actor = { username: string; ipAddress: string | null };

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

/** Match keys: '' never matches a stored value, so an absent identifier matches nothing. */
function keysOf(ids: Identifiers) {
  const digits = ids.phone ? phoneDigits(ids.phone) : '';
  return { email: ids.email ? normalizeEmail(ids.email) : '', digits: digits.length === 10 ? digits : '' };
}

const WEBSITE_MATCH = "(lower(l.email) = $1 and $1 <> '') or (phone_digits(l.phone) = $2 and $2 <> '')";

export async function findPersonalData(sql: Sql, ids: Identifiers) {
  const k = keysOf(ids);
  const rowsOf = async (text: string, values: unknown[]) =>
    (await sql.query<Record<string, unknown>>(text, values)).rows;
  const websiteLeads = await rowsOf(
    `select l.id, l.first_name, l.last_name, l.email, l.phone, l.street_address, l.zip_code, l.state,
            l.birth_month, l.birth_day, l.birth_year, l.consent_given, l.opt_in_date, l.opt_in_time,
            l.certification_id, l.lead_source, l.tcpa_compliant, l.beneficiary, l.ip_address, l.user_agent,
            l.trusted_form_url, l.opted_out_at, l.do_not_sell, l.country, l.attribution, l.created_at, l.updated_at
     from website_lead l where ${WEBSITE_MATCH} order by l.created_at`,
    [k.email, k.digits],
  );
  const apiLeads = await rowsOf(
    `select a.id, a.first_name, a.last_name, a.street_address, a.city, a.state, a.phone, a.birth_month,
            a.birth_day, a.birth_year, a.beneficiary, a.trusted_form_url, p.name as partner, a.opted_out_at,
            a.created_at
     from api_lead a left join partner p on p.id = a.partner_id
     where phone_digits(a.phone) = $1 and $1 <> '' order by a.created_at`,
    [k.digits],
  );
  const receipts = await rowsOf(
    `select r.id, r.lead_id, r.consent_given, r.consent_text_version, r.consent_text_hash, t.body as consent_text,
            r.ip_address, r.user_agent, r.page_url, r.trusted_form_url, r.gpc, r.created_at
     from consent_receipt r join consent_text t on t.hash = r.consent_text_hash
     join website_lead l on l.id = r.lead_id
     where ${WEBSITE_MATCH} order by r.created_at`,
    [k.email, k.digits],
  );
  const suppression = (
    await sql.query<{ kind: string; source: string; created_at: Date }>(
      `select kind, source, created_at from suppression
       where (kind = 'email' and value_hash = $1) or (kind = 'phone' and value_hash = $2) order by created_at`,
      [k.email ? emailHash(k.email) : '', k.digits ? phoneHash(k.digits) : ''],
    )
  ).rows;
  return {
    websiteLeads: websiteLeads.map((r) => ({
      id: String(r.id),
      firstName: String(r.first_name),
      lastName: String(r.last_name),
      email: String(r.email),
      phone: String(r.phone),
      streetAddress: String(r.street_address),
      zipCode: String(r.zip_code),
      state: (r.state as string | null) ?? null,
      birthMonth: String(r.birth_month),
      birthDay: String(r.birth_day),
      birthYear: String(r.birth_year),
      consentGiven: Boolean(r.consent_given),
      optInDate: String(r.opt_in_date),
      optInTime: String(r.opt_in_time),
      certificationId: (r.certification_id as string | null) ?? null,
      leadSource: String(r.lead_source),
      tcpaCompliant: String(r.tcpa_compliant),
      beneficiary: (r.beneficiary as string | null) ?? null,
      ipAddress: (r.ip_address as string | null) ?? null,
      userAgent: (r.user_agent as string | null) ?? null,
      trustedFormUrl: (r.trusted_form_url as string | null) ?? null,
      optedOutAt: iso(r.opted_out_at as Date | null),
      doNotSell: Boolean(r.do_not_sell),
      // Where the visit came from (issue 15): the captured values, as held.
      country: (r.country as string | null) ?? null,
      attribution: (r.attribution as Record<string, string> | null) ?? null,
      createdAt: iso(r.created_at as Date) ?? '',
      updatedAt: iso(r.updated_at as Date) ?? '',
    })),
    apiLeads: apiLeads.map((r) => ({
      id: String(r.id),
      firstName: String(r.first_name),
      lastName: String(r.last_name),
      streetAddress: String(r.street_address),
      city: String(r.city),
      state: String(r.state),
      phone: String(r.phone),
      birthMonth: String(r.birth_month),
      birthDay: String(r.birth_day),
      birthYear: String(r.birth_year),
      beneficiary: (r.beneficiary as string | null) ?? null,
      trustedFormUrl: (r.trusted_form_url as string | null) ?? null,
      partner: (r.partner as string | null) ?? null,
      optedOutAt: iso(r.opted_out_at as Date | null),
      createdAt: iso(r.created_at as Date) ?? '',
    })),
    consentReceipts: receipts.map((r) => ({
      id: String(r.id),
      leadId: String(r.lead_id),
      consentGiven: Boolean(r.consent_given),
      consentTextVersion: String(r.consent_text_version),
      consentTextHash: String(r.consent_text_hash),
      consentText: String(r.consent_text),
      ipAddress: (r.ip_address as string | null) ?? null,
      userAgent: (r.user_agent as string | null) ?? null,
      pageUrl: (r.page_url as string | null) ?? null,
      trustedFormUrl: (r.trusted_form_url as string | null) ?? null,
      gpc: Boolean(r.gpc),
      createdAt: iso(r.created_at as Date) ?? '',
    })),
    suppression: suppression.map((r) => ({
      kind: r.kind,
      source: r.source,
      createdAt: iso(r.created_at) ?? '',
    })),
  };
}

export type PersonalData = Awaited<ReturnType<typeof findPersonalData>>;

function counts(data: PersonalData) {
  return {
    websiteLeads: data.websiteLeads.length,
    apiLeads: data.apiLeads.length,
    consentReceipts: data.consentReceipts.length,
    suppression: data.suppression.length,
  };
}

/** Hashes, not the address or number: the audit log must not keep what a deletion removed. */
function auditSubject(ids: Identifiers) {
  const k = keysOf(ids);
  return { emailHash: k.email ? emailHash(k.email) : null, phoneHash: k.digits ? phoneHash(k.digits) : null };
}

export async function lookupPersonalData(pool: Pool, ids: Identifiers, actor: Actor) {
  const data = await findPersonalData(pool, ids);
  await recordAudit(pool, {
    actor: actor.username,
    action: 'privacy.lookup',
    detail: { ...auditSubject(ids), found: counts(data) },
    ipAddress: actor.ipAddress,
  });
  return { ...data, counts: counts(data) };
}

export async function exportPersonalData(pool: Pool, ids: Identifiers, actor: Actor) {
  const data = await findPersonalData(pool, ids);
  await recordAudit(pool, {
    actor: actor.username,
    action: 'privacy.export',
    detail: { ...auditSubject(ids), exported: counts(data) },
    ipAddress: actor.ipAddress,
  });
  return {
    generatedAt: new Date().toISOString(),
    subject: { email: ids.email || null, phone: ids.phone || null },
    ...data,
  };
}

/** Deletes every lead and receipt of the person in one transaction and keeps them suppressed. */
export async function deletePersonalData(pool: Pool, ids: Identifiers, actor: Actor) {
  const k = keysOf(ids);
  // A submission of this address waits for the deletion, then finds it suppressed.
  const deleted = await inTransaction(pool, k.email ? [emailLockName(k.email)] : [], async (client) => {
    // Receipts go with their lead (on delete cascade); counted first so the answer can say how many.
    const { rows } = await client.query<{ website: number; api: number; receipts: number }>(
      `with receipts as (
         select count(*)::int as n from consent_receipt r join website_lead l on l.id = r.lead_id where ${WEBSITE_MATCH}
       ), website as (
         delete from website_lead l where ${WEBSITE_MATCH}
         returning l.id, l.state, l.attribution->>'utm_source' as utm_source
       ), api as (
         delete from api_lead where phone_digits(phone) = $2 and $2 <> '' returning id, state
       ), w as (
         select array_agg(id) as ids, array_agg(state::text) as states, array_agg(utm_source) as sources from website
       ), a as (
         select array_agg(id) as ids, array_agg(state::text) as states, array_agg(null::text) as sources from api
       )
       -- Erasure travels (ADR 062): the consent is withdrawn and the lead deleted, for every endpoint that
       -- was sent it and every subscriber.
       select (select count(*)::int from website) as website, (select count(*)::int from api) as api,
              (select n from receipts) as receipts,
              webhook_enqueue('lead.opted_out', 'website', w.ids, w.states, w.sources) as w1,
              webhook_enqueue('lead.deleted', 'website', w.ids, w.states, w.sources) as w2,
              webhook_enqueue('lead.opted_out', 'api', a.ids, a.states, a.sources) as a1,
              webhook_enqueue('lead.deleted', 'api', a.ids, a.states, a.sources) as a2
       from w, a`,
      [k.email, k.digits],
    );
    await addSuppression(client, { email: k.email || null, phone: k.digits || null }, 'data_request');
    const r = rows[0] ?? { website: 0, api: 0, receipts: 0 };
    return { websiteLeads: r.website, apiLeads: r.api, consentReceipts: r.receipts };
  });
  await recordAudit(pool, {
    actor: actor.username,
    action: 'privacy.delete',
    detail: { ...auditSubject(ids), deleted },
    ipAddress: actor.ipAddress,
  });
  return { deleted, suppressed: { email: Boolean(k.email), phone: Boolean(k.digits) } };
}
