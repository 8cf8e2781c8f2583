import type { LeadQuality } from '@uf/shared/admin-leads';
import { ERROR_CODES } from '@uf/shared/errors';
import type { AdminVerdict } from '@uf/shared/quality';
import type { Pool } from 'pg';
import { recordAudit } from '../admin/audit.service';
import { AppError } from '../errors';
import type { LeadTable } from '../leads/admin-lead-tables';

// The admin's review (issue 33): release (accept) or reject a lead. A lead released now is delivered now:
// the statement that changes its verdict queues its `lead.created` (or `api_lead.created`) messages, as
// the submit's statement does for a lead accepted by the rules (ADR 062). A lead that was already
// accepted was already sent and is not sent again; rejecting it later cannot call it back.

type Actor = { username: string; ipAddress: string | null };

const CREATED_EVENT: Record<LeadTable['kind'], string> = {
  website: 'lead.created',
  api: 'api_lead.created',
};

type Changed = { id: string; quality: LeadQuality; delivered: boolean };

async function changeVerdicts(
  pool: Pool,
  table: LeadTable,
  ids: string[],
  verdict: AdminVerdict,
  actor: Actor,
): Promise<Changed[]> {
  const utm = table.kind === 'website' ? "u.attribution->>'utm_source'" : 'null::text';
  const { rows } = await pool.query<Changed>(
    `with before as (
       select id, quality_verdict from ${table.table} where id = any($1::uuid[]) for update
     ), u as (
       update ${table.table} t set quality_verdict = $2, quality_decided_by = $3, quality_decided_at = now()
       from before b where t.id = b.id
       returning t.*, b.quality_verdict as verdict_before
     ), released as (
       select * from u where $2 = 'accept' and verdict_before <> 'accept' and opted_out_at is null
     ), queued as (
       select webhook_enqueue('${CREATED_EVENT[table.kind]}', '${table.kind}', array_agg(u.id),
         array_agg(u.state::text), array_agg(${utm})) as n
       from released u
     )
     select u.id, json_build_object('verdict', u.quality_verdict, 'reasons', u.quality_reasons,
         'decidedBy', u.quality_decided_by,
         'decidedAt', to_char(u.quality_decided_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
         'rulesVersion', u.quality_rules_version) as quality,
       exists (select 1 from released r where r.id = u.id) as delivered
     from u cross join queued`,
    [ids, verdict, actor.username],
  );
  return rows;
}

/** POST /api/admin/leads/{id}/verdict (and api-leads): 404 when the lead does not exist. */
export async function setVerdict(
  pool: Pool,
  table: LeadTable,
  input: { id: string; verdict: AdminVerdict; note?: string | undefined },
  actor: Actor,
): Promise<Changed> {
  const [changed] = await changeVerdicts(pool, table, [input.id], input.verdict, actor);
  if (!changed) throw new AppError(ERROR_CODES.notFound, table.notFoundMessage);
  await recordAudit(pool, {
    actor: actor.username,
    action: 'quality.verdict',
    detail: { leadId: input.id, leadType: table.kind, verdict: input.verdict, note: input.note ?? null },
    ipAddress: actor.ipAddress,
  });
  return changed;
}

/** The review queue's bulk Release / Reject: the leads that exist are changed, the others ignored. */
export async function setVerdicts(
  pool: Pool,
  table: LeadTable,
  input: { ids: string[]; verdict: AdminVerdict; note?: string | undefined },
  actor: Actor,
): Promise<{ updated: number; delivered: number }> {
  const changed = await changeVerdicts(pool, table, [...new Set(input.ids)], input.verdict, actor);
  if (changed.length > 0) {
    await recordAudit(pool, {
      actor: actor.username,
      action: 'quality.verdict',
      detail: {
        ids: changed.map((c) => c.id),
        leadType: table.kind,
        verdict: input.verdict,
        note: input.note ?? null,
      },
      ipAddress: actor.ipAddress,
    });
  }
  return { updated: changed.length, delivered: changed.filter((c) => c.delivered).length };
}
