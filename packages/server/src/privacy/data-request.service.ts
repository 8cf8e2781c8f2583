import type { EntitySchema, InferEntity } from '@mikro-orm/core';
import { normalizeEmail, phoneDigits } from '@uf/shared/data-request.schema';
import type { Pool } from 'pg';
import { recordAudit } from '../admin/audit.service';
import { ApiLead } from '../db/entities/api-lead.entity';
import { ConsentReceipt } from '../db/entities/consent-receipt.entity';
import { WebsiteLead } from '../db/entities/website-lead.entity';
import { columnsOf, type EntityColumn, type PropertyOf } from '../db/entity-columns';
import { inTransaction, type Sql } from '../platform/pg-transaction';
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

/** A stored value as the export shows it: numbers and times as text (times in ISO 8601, UTC), the rest as stored. */
type Shown<T> =
  NonNullable<T> extends boolean
    ? boolean
    :
        | (NonNullable<T> extends Date | number | string ? string : NonNullable<T>)
        | (null extends T ? null : never);

function readerOf(column: EntityColumn): (value: unknown) => unknown {
  if (column.kind === 'bool') return Boolean;
  const read =
    column.kind === 'timestamp'
      ? (v: unknown) => iso(v as Date)
      : column.kind === 'json'
        ? (v: unknown) => v
        : (v: unknown) => String(v);
  return column.nullable ? (v) => (v === null || v === undefined ? null : read(v)) : read;
}

type Added = Record<string, { sql: string; after: string; read: (value: unknown) => unknown }>;

/**
 * What the export shows of a table's rows (ADR 064): every column of the entity but those `omit` names —
 * a secret (`.hidden()`) must be among them — and the values of `add`, each placed after a property. So
 * a new column reaches the person it is about without a change here.
 */
function exportOf<S extends EntitySchema, O extends PropertyOf<S>, A extends Added>(
  schema: S,
  alias: string,
  omit: readonly O[],
  add: A,
) {
  const { table, columns, properties } = columnsOf(schema);
  const omitted = new Set<string>(omit);
  const fields: { key: string; sql: string; read: (value: unknown) => unknown }[] = [];
  for (const p of properties) {
    const column = columns[p];
    if (column.hidden && !omitted.has(p)) throw new Error(`${table}.${column.name} is a secret: omit it`);
    if (!omitted.has(p)) fields.push({ key: p, sql: `${alias}.${column.name}`, read: readerOf(column) });
    for (const [key, value] of Object.entries(add)) if (value.after === p) fields.push({ key, ...value });
  }
  type Row = { [K in Exclude<PropertyOf<S>, O>]: Shown<InferEntity<S>[K]> } & {
    [K in keyof A]: ReturnType<A[K]['read']>;
  };
  return {
    /** `alias.column as "key", …`: the rows come back keyed as the export names them. */
    select: fields.map((f) => `${f.sql} as "${f.key}"`).join(', '),
    read: (row: Record<string, unknown>) =>
      Object.fromEntries(fields.map((f) => [f.key, f.read(row[f.key])])) as Row,
  };
}

// Not exported: secrets, and what the visit's analytics derive (the attribution itself is exported whole).
const WEBSITE_EXPORT = exportOf(
  WebsiteLead,
  'l',
  ['ownerTokenHash', 'retryKeyHash', 'sessionId', 'visitTracked', 'channel', 'source', 'medium', 'campaign'],
  {},
);
const API_EXPORT = exportOf(ApiLead, 'a', ['partnerId'], {
  partner: { sql: 'p.name', after: 'trustedFormUrl', read: (v) => (v as string | null) ?? null },
});
// A receipt's attribution is its lead's, exported with the lead.
const RECEIPT_EXPORT = exportOf(ConsentReceipt, 'r', ['attribution'], {
  consentText: { sql: 't.body', after: 'consentTextHash', read: (v) => String(v) },
});

const WEBSITE_MATCH = "(lower(l.email) = $1 and $1 <> '') or (phone_digits(l.phone) = $2 and $2 <> '')";

export async function findPersonalData(sql: Sql, ids: Identifiers) {
  const k = keysOf(ids);
  const rowsOf = async (text: string, values: unknown[]) =>
    (await sql.query<Record<string, unknown>>(text, values)).rows;
  const websiteLeads = await rowsOf(
    `select ${WEBSITE_EXPORT.select} from website_lead l where ${WEBSITE_MATCH} order by l.created_at`,
    [k.email, k.digits],
  );
  const apiLeads = await rowsOf(
    `select ${API_EXPORT.select}
     from api_lead a left join partner p on p.id = a.partner_id
     where phone_digits(a.phone) = $1 and $1 <> '' order by a.created_at`,
    [k.digits],
  );
  const receipts = await rowsOf(
    `select ${RECEIPT_EXPORT.select}
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
    websiteLeads: websiteLeads.map(WEBSITE_EXPORT.read),
    apiLeads: apiLeads.map(API_EXPORT.read),
    consentReceipts: receipts.map(RECEIPT_EXPORT.read),
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
