import { Migration } from '@mikro-orm/migrations';

// A monthly e-mail summary (issue 35: "the weekly and monthly reports include revenue, cost and profit"):
// the admin's opt-in beside the daily and weekly ones (ADR 063). What was sent is in email_report_sent
// already, under the rule 'monthly'.
export class Migration20261204200000_monthly_summary extends Migration {
  override name = 'Migration20261204200000_monthly_summary';

  override up(): void {
    this.addSql('alter table admin_user add column email_monthly_summary boolean not null default false');
  }

  override down(): void {
    this.addSql('alter table admin_user drop column email_monthly_summary');
  }
}
