// How audit-log entries read in the dashboard. The server stores machine names (packages/server
// src/admin/audit.service.ts AuditAction); admins see what happened in words.

const ACTION_LABELS: Record<string, string> = {
  'admin.sign_in': 'Signed in',
  'admin.sign_in_failed': 'Failed sign-in',
  'admin.sign_out': 'Signed out',
  'admin.sign_in_second_step_failed': 'Failed two-factor code',
  'admin.second_factor_locked': 'Two-factor locked after wrong codes',
  'admin.two_factor_enabled': 'Turned two-factor on',
  'admin.two_factor_disabled': 'Turned two-factor off',
  'admin.two_factor_reset': 'Two-factor reset (CLI)',
  'admin.recovery_code_used': 'Used a recovery code',
  'admin.recovery_codes_regenerated': 'New recovery codes',
  'admin.password_changed': 'Changed password',
  'admin.password_reset': 'Password reset (CLI)',
  'admin.session_ended': 'Ended a session',
  'admin.email_settings_changed': 'Changed e-mail reports',
  'admin.test_email_sent': 'Sent a test e-mail',
  'leads.export': 'Exported leads',
  'leads.export_conversions': 'Exported ad conversions',
  'leads.delete': 'Deleted leads',
  'api_leads.export': 'Exported API leads',
  'api_leads.delete': 'Deleted API leads',
  'database.backup': 'Backed up the database',
  'database.backup_download': 'Downloaded a backup',
  'database.backup_delete': 'Deleted a backup',
  'privacy.lookup': "Looked up a person's data",
  'privacy.export': "Exported a person's data",
  'privacy.delete': "Deleted a person's data",
  'partner_key.create': 'Created a partner API key',
  'partner_key.revoke': 'Revoked a partner API key',
  // Lead quality (issue 33): a release (accept) or reject, with its note; a change of the settings.
  'quality.verdict': 'Released or rejected leads',
  'quality.settings_changed': 'Changed the quality settings',
};

/** The action in words; an action this build does not know yet is shown as stored. */
export function describeAction(action: string): string {
  return ACTION_LABELS[action] ?? action;
}

const isEmpty = (v: unknown) =>
  v === undefined ||
  v === null ||
  v === '' ||
  (typeof v === 'object' && !Array.isArray(v) && Object.keys(v as object).length === 0);

function pairs(detail: Record<string, unknown>): string[] {
  return Object.entries(detail)
    .filter(([, v]) => !isEmpty(v))
    .map(([k, v]) => `${k}: ${describeValue(v)}`);
}

function describeValue(value: unknown): string {
  if (Array.isArray(value))
    return value.length > 3 ? `${value.length} items` : value.map(describeValue).join(', ');
  if (value !== null && typeof value === 'object')
    return `{${pairs(value as Record<string, unknown>).join(', ')}}`;
  return String(value);
}

/** `key: value` pairs of the entry's detail, e.g. "requested: 3; deleted: 3". */
export function describeDetail(detail: Record<string, unknown>): string {
  return pairs(detail).join('; ');
}
