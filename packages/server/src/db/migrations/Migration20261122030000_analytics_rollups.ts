import { Migration } from '@mikro-orm/migrations';

// Visitor analytics at scale (ADR 020): raw events keyed for time partitioning, checked at the
// database too, plus one narrow daily rollup per dimension that the dashboard reads instead of raw rows.
export class Migration20261122030000_analytics_rollups extends Migration {
  override name = 'Migration20261122030000_analytics_rollups';

  override up(): void {
    // The address counted in Top Referrers (scheme, host without www., path; no query).
    this.addSql('alter table analytics_event add column referrer_url text null');
    // A partitioned table's keys must contain the partition column: (created_at, id) makes the later
    // switch to monthly range partitions a matter of attaching, not rewriting (ADR 022). The same index
    // serves retention's oldest-first deletes, so the separate created_at index goes.
    this.addSql('alter table analytics_event drop constraint analytics_event_pkey');
    this.addSql('alter table analytics_event add primary key (created_at, id)');
    this.addSql('drop index if exists analytics_event_created_at_idx');
    // Last line of defence behind the zod schema: a row that slips past it fails alone (group commit
    // retries a failed batch row by row), never silently.
    this.addSql(`
      alter table analytics_event
        add constraint analytics_event_type_check
          check (event_type in ('page_view', 'form_submit', 'survey_started', 'button_click')),
        add constraint analytics_event_lengths_check
          check (length(page) <= 200 and length(referrer) <= 2048 and length(session_id) <= 100),
        add constraint analytics_event_country_check check (country ~ '^[A-Z]{2}$')`);

    // Daily counts in the configured TIME_ZONE's calendar. Unknown countries are left out of the
    // country tables (they are not a country); every event is in the type table.
    this.addSql(`
      create table analytics_daily_type (
        day date not null,
        event_type text not null,
        count bigint not null,
        primary key (day, event_type)
      )`);
    this.addSql(`
      create table analytics_daily_country (
        day date not null,
        event_type text not null,
        country text not null,
        count bigint not null,
        primary key (day, event_type, country)
      )`);
    this.addSql('create index analytics_daily_country_country_idx on analytics_daily_country (country, day)');
    this.addSql(`
      create table analytics_daily_referrer (
        day date not null,
        event_type text not null,
        referrer text not null,
        count bigint not null,
        primary key (day, event_type, referrer)
      )`);
    // Only read when the dashboard filters by country; keyed country first so that read stays narrow.
    this.addSql(`
      create table analytics_daily_country_referrer (
        country text not null,
        day date not null,
        event_type text not null,
        referrer text not null,
        count bigint not null,
        primary key (country, day, event_type, referrer)
      )`);
  }
}
