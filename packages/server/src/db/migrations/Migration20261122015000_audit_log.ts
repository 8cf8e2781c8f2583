import { Migration } from '@mikro-orm/migrations';

export class Migration20261122015000_audit_log extends Migration {
  override name = 'Migration20261122015000_audit_log';

  override up(): void {
    this.addSql(`
      create table audit_log (
        id bigint generated always as identity primary key,
        actor text not null,
        action text not null,
        detail jsonb not null default '{}'::jsonb,
        ip_address text null,
        created_at timestamptz not null default now()
      )`);
    this.addSql('create index audit_log_created_at_idx on audit_log (created_at desc)');
  }
}
