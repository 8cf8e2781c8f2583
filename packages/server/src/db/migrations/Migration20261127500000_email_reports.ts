import { Migration } from '@mikro-orm/migrations';

// E-mail reports and alerts (issue 24, ADR 063): each admin's address and opt-ins, and what was sent,
// so that several replicas running the scheduler send each report once and each alert at most once per
// 12 hours (the row is claimed with one statement before sending).
export class Migration20261127500000_email_reports extends Migration {
  override name = 'Migration20261127500000_email_reports';

  override up(): void {
    this.addSql(`
      alter table admin_user
        add column email text,
        add column email_daily_summary boolean not null default false,
        add column email_weekly_summary boolean not null default false,
        add column email_alerts boolean not null default false`);
    this.addSql(`
      create table email_report_sent (
        rule text not null,
        period_key text not null,
        sent_at timestamptz not null default now(),
        recipients integer not null default 0,
        primary key (rule, period_key)
      )`);
    this.addSql(`
      create table email_alert_sent (
        rule text primary key,
        sent_at timestamptz not null
      )`);
  }

  override down(): void {
    this.addSql('drop table email_alert_sent');
    this.addSql('drop table email_report_sent');
    this.addSql(`
      alter table admin_user
        drop column email,
        drop column email_daily_summary,
        drop column email_weekly_summary,
        drop column email_alerts`);
  }
}
