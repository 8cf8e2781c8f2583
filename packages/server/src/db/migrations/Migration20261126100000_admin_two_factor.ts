import { Migration } from '@mikro-orm/migrations';

// Admin accounts that hold against a stolen password (issue 25, ADR 058): TOTP two-factor sign-in with
// single-use recovery codes, and sessions an admin can list and end (admin_session.admin_id).
export class Migration20261126100000_admin_two_factor extends Migration {
  override name = 'Migration20261126100000_admin_two_factor';

  override up(): void {
    this.addSql(`
      alter table admin_user
        add column totp_secret text,
        add column totp_pending_secret text,
        add column totp_enabled_at timestamptz,
        add column totp_last_step integer`);
    this.addSql(`
      create table admin_recovery_code (
        id uuid primary key default gen_random_uuid(),
        admin_id uuid not null references admin_user (id) on delete cascade,
        code_hash text not null,
        used_at timestamptz,
        created_at timestamptz not null default now()
      )`);
    this.addSql('create index admin_recovery_code_admin_idx on admin_recovery_code (admin_id)');
    this.addSql('alter table admin_session add column admin_id uuid');
    // Sessions signed in before this migration carry the admin in their data only.
    this.addSql(
      `update admin_session set admin_id = (data->>'adminId')::uuid
       where data->>'adminId' ~ '^[0-9a-f-]{36}$'`,
    );
    this.addSql('create index admin_session_admin_idx on admin_session (admin_id)');
  }

  override down(): void {
    this.addSql('alter table admin_session drop column admin_id');
    this.addSql('drop table admin_recovery_code');
    this.addSql(`
      alter table admin_user
        drop column totp_secret,
        drop column totp_pending_secret,
        drop column totp_enabled_at,
        drop column totp_last_step`);
  }
}
