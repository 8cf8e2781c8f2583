import { Migration } from '@mikro-orm/migrations';

// Attribution and funnel (issue 15, ADR 055): where each visit came from, cookieless visitors, visits,
// and the rollups the dashboard reads them from.

/** A website lead's rollup key: its day and where its visit came from (before attribution: Direct). */
const LEAD_KEY = `case when opt_in_date ~ '^\\d{4}-\\d{2}-\\d{2}$' then opt_in_date::date else created_at::date end as day, coalesce(country, '') as country, coalesce(channel, 'Direct') as channel,
  coalesce(source, 'direct') as source, coalesce(campaign, '') as campaign`;
/** Its counts, times `sign` (1 or -1). */
const LEAD_COUNTS = (sign: string) => `sum(${sign}) as leads,
  sum(case when consent_given and tcpa_compliant = 'true' and opted_out_at is null then ${sign} else 0 end) as consenting,
  sum(case when beneficiary is not null then ${sign} else 0 end) as beneficiaries`;

/** The leads in `rows` (with a `sign` column) as counts per rollup key; keys whose counts do not change left out. */
export const leadDeltas = (rows: string) => `
    select * from (select ${LEAD_KEY}, ${LEAD_COUNTS('sign')} from (${rows}) r group by 1, 2, 3, 4, 5) g
    where leads <> 0 or consenting <> 0 or beneficiaries <> 0`;

/** The daily and monthly upserts of the leads in `rows` (with a `sign` column), grouped; no-op changes skipped. */
export const LEAD_DELTA_UPSERTS = (rows: string) => `
  with d as (${leadDeltas(rows)}), daily as (
    insert into lead_daily_source as t (day, country, channel, source, campaign, leads, consenting, beneficiaries)
    select * from d order by 1, 2, 3, 4, 5
    on conflict (day, country, channel, source, campaign) do update set leads = t.leads + excluded.leads,
      consenting = t.consenting + excluded.consenting, beneficiaries = t.beneficiaries + excluded.beneficiaries
  )
  insert into lead_monthly_source as t (month, country, channel, source, campaign, leads, consenting, beneficiaries)
  select date_trunc('month', day)::date, country, channel, source, campaign, sum(leads), sum(consenting),
    sum(beneficiaries) from d group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5
  on conflict (month, country, channel, source, campaign) do update set leads = t.leads + excluded.leads,
    consenting = t.consenting + excluded.consenting, beneficiaries = t.beneficiaries + excluded.beneficiaries;`;

/** The trigger function that writes each statement's changed leads into the rollups with `write`. */
export const leadSourceRollupFunction = (write: (rows: string) => string) => `
      create or replace function lead_source_rollup() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          ${write('select *, 1 as sign from new_rows')}
        elsif tg_op = 'DELETE' then
          ${write('select *, -1 as sign from old_rows')}
        else
          ${write('select *, 1 as sign from new_rows union all select *, -1 from old_rows')}
        end if;
        return null;
      end
      $$`;

export class Migration20261124100000_attribution extends Migration {
  override name = 'Migration20261124100000_attribution';

  override up(): void {
    // Raw events carry the visit's attribution in normalised columns (reporting only) and the day's
    // visitor id: hash(daily salt, IP, user agent) — no IP is stored.
    this.addSql(`
      alter table analytics_event
        add column visitor_id bigint null,
        add column channel text null,
        add column source text null,
        add column utm_source text null,
        add column utm_medium text null,
        add column utm_campaign text null,
        add column utm_term text null,
        add column utm_content text null,
        add column click_id_type text null,
        add constraint analytics_event_attribution_lengths_check check (
          length(source) <= 2048 and length(utm_source) <= 100 and length(utm_medium) <= 100
          and length(utm_campaign) <= 100 and length(utm_term) <= 100 and length(utm_content) <= 100)`);

    // The secret salt of each day; only today's exists (older ones are deleted at rotation), so a
    // visitor id can never be recomputed for a past day.
    this.addSql(`
      create table analytics_salt (
        day date primary key,
        salt bytea not null,
        created_at timestamptz not null default now()
      )`);

    // One row per visit (browser session) and day: its attribution, fixed by its first event, and the
    // funnel steps it reached as bits (1 page view, 2 survey started, 4 form submitted, 8 state-site
    // click). prev_steps holds the bits before the last update so one statement can tell which steps are
    // new (PostgreSQL before 18 cannot return the old row).
    this.addSql(`
      create table analytics_visit (
        day date not null,
        session_id text not null,
        visitor_id bigint null,
        country text not null,
        channel text not null,
        source text not null,
        campaign text not null,
        referrer text not null,
        steps smallint not null,
        prev_steps smallint not null default 0,
        primary key (day, session_id)
      )`);
    // Visitors seen each day, per country, channel, source and campaign: a visitor counts once a day in
    // each such group (a visitor who came through two campaigns in one day counts in both).
    this.addSql(`
      create table analytics_day_visitor (
        day date not null,
        visitor_id bigint not null,
        country text not null,
        channel text not null,
        source text not null,
        campaign text not null,
        primary key (day, visitor_id, country, channel, source, campaign)
      )`);
    // Visits, visitors and funnel steps by day, country ('' when unknown), channel, source and campaign;
    // and the same by month, read for the whole months of a range (as the other monthly rollups).
    for (const [table, period] of [
      ['analytics_daily_source', 'day'],
      ['analytics_monthly_source', 'month'],
    ] as const) {
      this.addSql(`
        create table ${table} (
          ${period} date not null,
          country text not null,
          channel text not null,
          source text not null,
          campaign text not null,
          visits bigint not null default 0,
          visitors bigint not null default 0,
          page_views bigint not null default 0,
          survey_starts bigint not null default 0,
          form_submits bigint not null default 0,
          state_clicks bigint not null default 0,
          primary key (${period}, country, channel, source, campaign)
        )`);
    }

    // Top Referrers counts visits now (issue 15: its badge says "visits" but counted every event). The
    // referrer rollups hold one row kind, 'visit'. Raw events may have expired, so the history is
    // converted, not rebuilt: one landing page view was one visit before sessions were counted.
    for (const table of [
      'analytics_daily_referrer',
      'analytics_daily_country_referrer',
      'analytics_monthly_referrer',
      'analytics_monthly_country_referrer',
    ]) {
      this.addSql(`delete from ${table} where event_type <> 'page_view'`);
      this.addSql(`update ${table} set event_type = 'visit'`);
    }

    // The website lead and its consent receipt carry where the visit came from: the lead for reports,
    // the receipt as evidence of which ad obtained the consent. country: from the IP, as analytics.
    this.addSql(`
      alter table website_lead
        add column channel text null,
        add column source text null,
        add column medium text null,
        add column campaign text null,
        add column attribution jsonb null,
        add column country text null`);
    this.addSql('alter table consent_receipt add column attribution jsonb null');

    // Website leads by day (opt_in_date: the submit's calendar day in TIME_ZONE) and by month, per
    // country, channel, source and campaign: what the funnel and the sources table read, so that their
    // cost does not grow with the number of leads. Kept exact by statement triggers on website_lead
    // (transition tables: one grouped upsert per statement, however many rows a bulk delete touches).
    for (const [table, period] of [
      ['lead_daily_source', 'day'],
      ['lead_monthly_source', 'month'],
    ] as const) {
      this.addSql(`
        create table ${table} (
          ${period} date not null,
          country text not null,
          channel text not null,
          source text not null,
          campaign text not null,
          leads bigint not null default 0,
          consenting bigint not null default 0,
          beneficiaries bigint not null default 0,
          primary key (${period}, country, channel, source, campaign)
        )`);
    }
    this.addSql(leadSourceRollupFunction(LEAD_DELTA_UPSERTS));
    this.addSql(`create trigger website_lead_source_insert after insert on website_lead
      referencing new table as new_rows for each statement execute function lead_source_rollup()`);
    this.addSql(`create trigger website_lead_source_update after update on website_lead
      referencing old table as old_rows new table as new_rows for each statement execute function lead_source_rollup()`);
    this.addSql(`create trigger website_lead_source_delete after delete on website_lead
      referencing old table as old_rows for each statement execute function lead_source_rollup()`);
    this.addSql(`
      create function lead_source_rollup_clear() returns trigger language plpgsql as $$
      begin
        truncate lead_daily_source, lead_monthly_source;
        return null;
      end
      $$`);
    this.addSql(`create trigger website_lead_source_truncate after truncate on website_lead
      for each statement execute function lead_source_rollup_clear()`);
    // Leads stored before attribution count as Direct.
    this.addSql(`
      insert into lead_daily_source (day, country, channel, source, campaign, leads, consenting, beneficiaries)
      select ${LEAD_KEY}, ${LEAD_COUNTS('1')} from website_lead group by 1, 2, 3, 4, 5`);
    this.addSql(`
      insert into lead_monthly_source (month, country, channel, source, campaign, leads, consenting, beneficiaries)
      select date_trunc('month', day)::date, country, channel, source, campaign, sum(leads), sum(consenting),
        sum(beneficiaries) from lead_daily_source group by 1, 2, 3, 4, 5`);
  }

  override down(): void {
    this.addSql('drop trigger website_lead_source_insert on website_lead');
    this.addSql('drop trigger website_lead_source_update on website_lead');
    this.addSql('drop trigger website_lead_source_delete on website_lead');
    this.addSql('drop trigger website_lead_source_truncate on website_lead');
    this.addSql('drop function lead_source_rollup(), lead_source_rollup_clear()');
    this.addSql('drop table lead_daily_source, lead_monthly_source');
    this.addSql('alter table consent_receipt drop column attribution');
    this.addSql(`
      alter table website_lead drop column channel, drop column source, drop column medium,
        drop column campaign, drop column attribution, drop column country`);
    this.addSql('drop table analytics_monthly_source, analytics_daily_source, analytics_day_visitor');
    this.addSql('drop table analytics_visit, analytics_salt');
    this.addSql(`
      alter table analytics_event drop constraint analytics_event_attribution_lengths_check,
        drop column visitor_id, drop column channel, drop column source, drop column utm_source,
        drop column utm_medium, drop column utm_campaign, drop column utm_term, drop column utm_content,
        drop column click_id_type`);
  }
}
