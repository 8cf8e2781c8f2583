import type { AuditEntry } from '@uf/shared/admin-leads';
import type { Pool } from 'pg';

/** Admin actions kept for accountability (spec-adjacent: sign-in, export, delete, backup, …). */
export type AuditAction =
  | 'admin.sign_in'
  | 'admin.sign_in_failed'
  | 'admin.sign_out'
  | 'admin.sign_in_second_step_failed'
  | 'admin.second_factor_locked'
  | 'admin.two_factor_enabled'
  | 'admin.two_factor_disabled'
  | 'admin.two_factor_reset'
  | 'admin.recovery_code_used'
  | 'admin.recovery_codes_regenerated'
  | 'admin.password_changed'
  | 'admin.password_reset'
  | 'admin.session_ended'
  | 'admin.email_settings_changed'
  | 'admin.test_email_sent'
  | 'leads.export'
  | 'leads.export_conversions'
  | 'leads.delete'
  | 'api_leads.export'
  | 'api_leads.delete'
  | 'database.backup'
  | 'database.backup_download'
  | 'database.backup_delete'
  | 'privacy.lookup'
  | 'privacy.export'
  | 'privacy.delete'
  | 'partner_key.create'
  | 'partner_key.revoke'
  | 'webhooks.create'
  | 'webhooks.update'
  | 'webhooks.delete'
  | 'webhooks.rotate_secret'
  | 'webhooks.resend'
  | 'webhooks.disabled'
  | 'quality.verdict'
  | 'quality.settings_changed'
  | 'buyers.create'
  | 'buyers.update'
  | 'buyers.delete'
  | 'buyers.test'
  | 'buyers.paused'
  | 'leads.return'
  | 'leads.settle_taken'
  | 'leads.settle_not_taken'
  | 'ad_costs.import'
  | 'ad_costs.delete'
  | 'experiments.change';

export async function recordAudit(
  pool: Pool,
  entry: { actor: string; action: AuditAction; detail?: Record<string, unknown>; ipAddress?: string | null },
): Promise<void> {
  await pool.query('insert into audit_log (actor, action, detail, ip_address) values ($1, $2, $3, $4)', [
    entry.actor,
    entry.action,
    JSON.stringify(entry.detail ?? {}),
    entry.ipAddress ?? null,
  ]);
}

export type AuditRow = {
  id: string;
  actor: string;
  action: string;
  detail: Record<string, unknown>;
  ip_address: string | null;
  created_at: Date;
};

/** The columns an AuditRow needs, for any query over audit_log. */
export const AUDIT_COLUMNS = 'id, actor, action, detail, ip_address, created_at';

export const auditEntryOf = (r: AuditRow): AuditEntry => ({
  id: Number(r.id),
  actor: r.actor,
  action: r.action,
  detail: r.detail,
  ipAddress: r.ip_address,
  createdAt: r.created_at.toISOString(),
});

export async function listAudit(pool: Pool, options: { limit: number; before?: number }) {
  const { rows } = await pool.query<AuditRow>(
    `select ${AUDIT_COLUMNS} from audit_log
     where ($2::bigint is null or id < $2) order by id desc limit $1`,
    [options.limit, options.before ?? null],
  );
  return rows.map(auditEntryOf);
}
