import { Migration } from '@mikro-orm/migrations';

export class Migration20261122010000_admin_auth extends Migration {
  override name = 'Migration20261122010000_admin_auth';

  override up(): void {
    // Secrets generated once and shared by every replica (e.g. the session-cookie key when
    // SESSION_SECRET is not configured).
    this.addSql(`
      create table app_secret (
        name text primary key,
        value text not null,
        created_at timestamptz not null default now()
      )`);
    // Fixed-window counters shared by every replica: sign-in attempts, partner API calls.
    this.addSql(`
      create table rate_limit_bucket (
        key text primary key,
        window_start timestamptz not null,
        count integer not null
      )`);
  }
}
