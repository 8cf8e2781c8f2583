import { Readable } from 'node:stream';
import type { ApiLeadStats, AuditEntry, SortOrder, WebsiteLeadStats } from '@uf/shared/admin-leads';
import { DEFAULT_PAGE_SIZE } from '@uf/shared/admin-leads';
import type { ApiLeadFilters, WebsiteLeadFilters } from '@uf/shared/admin-leads.schema';
import { phoneDigits } from '@uf/shared/data-request.schema';
import { ERROR_CODES } from '@uf/shared/errors';
import type { Pool } from 'pg';
import {
  AUDIT_COLUMNS,
  type AuditAction,
  type AuditRow,
  auditEntryOf,
  recordAudit,
} from '../admin/audit.service';
import { AppError } from '../errors';
import { emailHash, phoneHash } from '../privacy/suppression.service';
import { jsonRowSql, type LeadTable, orderBySql, parameterBinder, whereSql } from './admin-lead-tables';

// Admin reads and deletes of website and API leads. Plain SQL on the pool: the list is built as JSON
// by PostgreSQL, counts and deletes are single statements whatever the size.

export type Filters = WebsiteLeadFilters | ApiLeadFilters;
export type ListOptions = {
  filters: Filters;
  sort: string;
  order: SortOrder;
  timeZone: string;
};
export type Actor = { username: string; ipAddress: string | null };

function selectSql(table: LeadTable, options: ListOptions, projection: string) {
  const { bind, params } = parameterBinder();
  const where = whereSql(table, options.filters, options.timeZone, bind);
  return {
    params,
    bind,
    sql: `select ${projection} as row from ${table.table} ${where} order by ${orderBySql(table, options.sort, options.order)}`,
  };
}

/** One page of leads and the total count of the filtered set (for 'Leads Data (N records)'). */
export async function listLeads<T>(
  pool: Pool,
  table: LeadTable,
  options: ListOptions & { page?: number; pageSize?: number },
): Promise<{ items: T[]; total: number; page: number; pageSize: number }> {
  const page = options.page ?? 1;
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  const query = selectSql(table, options, jsonRowSql(table));
  const sql = `${query.sql} limit ${query.bind(pageSize)} offset ${query.bind((page - 1) * pageSize)}`;
  const countQuery = parameterBinder();
  const countWhere = whereSql(table, options.filters, options.timeZone, countQuery.bind);
  const [rows, count] = await Promise.all([
    pool.query<{ row: T }>(sql, query.params),
    pool.query<{ total: number }>(
      `select count(*)::int as total from ${table.table} ${countWhere}`,
      countQuery.params,
    ),
  ]);
  return { items: rows.rows.map((r) => r.row), total: count.rows[0]?.total ?? 0, page, pageSize };
}

/**
 * One lead whole, for its own page (issue 26): the row as the list shows it (same fields, same JSON)
 * and the table's extra details (a website lead's captured attribution and country, an API lead's
 * partner). 404 with the table's message when there is no such lead.
 */
export async function getLead<T>(pool: Pool, table: LeadTable, id: string): Promise<T> {
  const { rows } = await pool.query<{ row: T; extra: Record<string, unknown> }>(
    `select ${jsonRowSql(table)} as row, ${table.detailSql} as extra
     from ${table.table} where id = $1`,
    [id],
  );
  const found = rows[0];
  if (!found) throw new AppError(ERROR_CODES.notFound, table.notFoundMessage);
  return { ...found.row, ...found.extra };
}

/** Most entries one lead's page lists (newest first). */
export const LEAD_AUDIT_LIMIT = 200;

/**
 * The audit entries that concern one lead (issue 26), newest first: those that name it (`detail.id` of a
 * delete of its table, or `detail.leadId`), and the data requests about the person it belongs to, which
 * the log keeps as hashes of the e-mail address and phone number (ADR 033). Answers for any id: after a
 * delete only the entries that name the lead remain findable, which is what a deleted lead's page shows.
 * Bulk deletes by ids or by filter log counts, not ids, so they do not appear here.
 */
export async function listLeadAudit(pool: Pool, table: LeadTable, id: string): Promise<AuditEntry[]> {
  const subject = await pool.query<{ email: string | null; phone: string | null }>(
    `select ${table.identitySql.email} as email, ${table.identitySql.phone} as phone
     from ${table.table} where id = $1`,
    [id],
  );
  const person = subject.rows[0];
  const digits = person?.phone ? phoneDigits(person.phone) : '';
  const { rows } = await pool.query<AuditRow>(
    `select ${AUDIT_COLUMNS} from audit_log
     where (action = any($2::text[]) and detail->>'id' = $1)
        or detail->>'leadId' = $1
        or (action like 'privacy.%' and (detail->>'emailHash' = $3 or detail->>'phoneHash' = $4))
     order by id desc limit $5`,
    [
      id,
      table.auditActions,
      person?.email ? emailHash(person.email) : null,
      digits.length === 10 ? phoneHash(digits) : null,
      LEAD_AUDIT_LIMIT,
    ],
  );
  return rows.map(auditEntryOf);
}

const STREAM_BATCH = 2000;

/**
 * Every matching lead as one JSON array, read through a server-side cursor in batches, so memory
 * stays flat however many rows there are. The connection is released when the stream ends or is
 * destroyed (client gone).
 */
export function streamLeadsJson(pool: Pool, table: LeadTable, options: ListOptions): Readable {
  const query = selectSql(table, options, `${jsonRowSql(table)}::text`);
  async function* generate() {
    const client = await pool.connect();
    let completed = false;
    try {
      await client.query('begin read only');
      await client.query(`declare leads_cursor no scroll cursor for ${query.sql}`, query.params);
      yield '[';
      let first = true;
      for (;;) {
        const { rows } = await client.query<{ row: string }>(`fetch ${STREAM_BATCH} from leads_cursor`);
        if (rows.length === 0) break;
        const chunk = rows.map((r) => r.row).join(',');
        yield first ? chunk : `,${chunk}`;
        first = false;
      }
      yield ']';
      await client.query('commit');
      completed = true;
    } finally {
      // Failed or abandoned (Readable.from calls return() when the client goes away): the connection
      // is mid-transaction, so it is discarded instead of going back to the pool.
      client.release(completed ? undefined : true);
    }
  }
  return Readable.from(generate(), { objectMode: false });
}

/**
 * Counts for the stat cards. Day, week (Monday to Sunday) and month are calendar periods in the
 * business time zone (TIME_ZONE) that contain `now`; each counts leads created from its start.
 */
export async function leadCounts(pool: Pool, table: LeadTable, timeZone: string, now = new Date()) {
  const consent = table.kind === 'website' ? 'count(*) filter (where consent_given)::int' : '0';
  const { rows } = await pool.query<{
    total: number;
    daily: number;
    weekly: number;
    monthly: number;
    consented: number;
  }>(
    `with local_now as (select ($1::timestamptz at time zone $2::text) as t)
     select count(*)::int as total,
       count(*) filter (where created_at >= (date_trunc('day', t) at time zone $2::text))::int as daily,
       count(*) filter (where created_at >= (date_trunc('week', t) at time zone $2::text))::int as weekly,
       count(*) filter (where created_at >= (date_trunc('month', t) at time zone $2::text))::int as monthly,
       ${consent} as consented
     from ${table.table}, local_now group by t`,
    [now, timeZone],
  );
  return rows[0] ?? { total: 0, daily: 0, weekly: 0, monthly: 0, consented: 0 };
}

export async function websiteLeadStats(pool: Pool, table: LeadTable, timeZone: string, now?: Date) {
  const c = await leadCounts(pool, table, timeZone, now);
  const stats: WebsiteLeadStats = {
    totalLeads: c.total,
    dailyLeads: c.daily,
    weeklyLeads: c.weekly,
    monthlyLeads: c.monthly,
    consentRate: c.total === 0 ? 0 : Math.round((c.consented / c.total) * 1000) / 10,
  };
  return stats;
}

export async function apiLeadStats(pool: Pool, table: LeadTable, timeZone: string, now?: Date) {
  const c = await leadCounts(pool, table, timeZone, now);
  const stats: ApiLeadStats = {
    totalApiLeads: c.total,
    dailyApiLeads: c.daily,
    weeklyApiLeads: c.weekly,
    monthlyApiLeads: c.monthly,
  };
  return stats;
}

const DELETE_ACTION: Record<LeadTable['kind'], AuditAction> = {
  website: 'leads.delete',
  api: 'api_leads.delete',
};

/**
 * Deletes the listed leads in one statement, which also queues `lead.deleted` to the webhook endpoints
 * subscribed to it and to every endpoint that was sent the lead (ADR 062). Answers how many went.
 */
async function deleteByIds(pool: Pool, table: LeadTable, ids: string[]): Promise<number> {
  const utm = table.kind === 'website' ? "attribution->>'utm_source'" : 'null::text';
  const { rows } = await pool.query<{ n: number }>(
    `with gone as (
       delete from ${table.table} where id = any($1::uuid[]) returning id, state, ${utm} as utm_source
     )
     select (select count(*)::int from gone) as n,
       webhook_enqueue('lead.deleted', '${table.kind}', array_agg(id), array_agg(state::text), array_agg(utm_source))
     from gone`,
    [ids],
  );
  return rows[0]?.n ?? 0;
}

/** Deletes one lead; 404 when it does not exist (already deleted, or never did). */
export async function deleteLead(pool: Pool, table: LeadTable, id: string, actor: Actor) {
  const deleted = await deleteByIds(pool, table, [id]);
  if (!deleted) throw new AppError(ERROR_CODES.notFound, table.notFoundMessage);
  await recordAudit(pool, {
    actor: actor.username,
    action: DELETE_ACTION[table.kind],
    detail: { id },
    ipAddress: actor.ipAddress,
  });
  return { id, deletedCount: 1 };
}

/** Rows per DELETE statement of a delete-matching: short statements, no long lock on the table. */
export const DELETE_MATCHING_BATCH = 5000;

/**
 * "Select all N matching" (issue 26): deletes every lead the filters match, in batches. The matching ids
 * are read first, in one statement; when they are not the `expectedCount` the admin confirmed (leads
 * arrived or went since), nothing is deleted and the answer is 409 with the current count. Then the ids
 * are deleted DELETE_MATCHING_BATCH at a time, so a lead that arrives meanwhile — matching or not — is
 * never touched. One audit entry with the filters and the counts.
 */
export async function deleteMatchingLeads(
  pool: Pool,
  table: LeadTable,
  options: { filters: Filters; expectedCount: number; timeZone: string; actor: Actor },
) {
  const query = parameterBinder();
  const where = whereSql(table, options.filters, options.timeZone, query.bind);
  const { rows } = await pool.query<{ id: string }>(`select id from ${table.table} ${where}`, query.params);
  if (rows.length !== options.expectedCount) {
    throw new AppError(
      ERROR_CODES.conflict,
      `The matching leads changed: ${rows.length.toLocaleString('en-US')} match now, not the ${options.expectedCount.toLocaleString('en-US')} you confirmed. Refresh and try again.`,
      undefined,
      { matching: rows.length },
    );
  }
  let deletedCount = 0;
  for (let i = 0; i < rows.length; i += DELETE_MATCHING_BATCH) {
    const ids = rows.slice(i, i + DELETE_MATCHING_BATCH).map((r) => r.id);
    deletedCount += await deleteByIds(pool, table, ids);
  }
  await recordAudit(pool, {
    actor: options.actor.username,
    action: DELETE_ACTION[table.kind],
    detail: { matching: options.filters, requested: rows.length, deleted: deletedCount },
    ipAddress: options.actor.ipAddress,
  });
  return { deletedCount };
}

/** Deletes every listed lead in ONE statement; ids that no longer exist are simply not counted. */
export async function deleteLeads(pool: Pool, table: LeadTable, ids: string[], actor: Actor) {
  const unique = [...new Set(ids)];
  const deletedCount = await deleteByIds(pool, table, unique);
  await recordAudit(pool, {
    actor: actor.username,
    action: DELETE_ACTION[table.kind],
    detail: { requested: unique.length, deleted: deletedCount },
    ipAddress: actor.ipAddress,
  });
  return { deletedCount };
}
