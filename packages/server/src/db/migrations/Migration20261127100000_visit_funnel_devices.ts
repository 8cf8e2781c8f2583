import { Migration } from '@mikro-orm/migrations';
import {
  LEAD_DELTA_INSERTS_V1,
  leadSourceRollupFunction,
  ROLLUP_COMPACTION_V1,
} from './Migration20261124200000_lead_rollup_deltas';

// Issue 26, parts 5 and 6 (ADR 060).
//
// One population for the funnel: the visits of the range, each counted at every step up to the deepest
// one it reached (page view → survey started → form submitted → lead stored → beneficiary answered →
// state-site click), so no step can exceed the one before it. A website lead keeps the analytics session
// id its browser sent; when that session has a visit on the lead's day the lead is `visit_tracked` and
// marks the visit (bit 16 lead stored, 32 beneficiary answered) from the lead rollup trigger, which adds
// the visit's new depth to the source rollups. Leads whose session had no visit are counted apart
// (`tracked` in the lead rollups: untracked = leads − tracked).
//
// Device type, browser and operating system: derived from the user agent at ingest (the user agent
// itself is still not stored), kept on the raw event and counted per visit by day/month and country.

/** How deep a visit went (0–6) from its step bits: the funnel counts a visit at every step up to this. */
const DEPTH_FUNCTION = `
  create or replace function analytics_visit_depth(steps smallint) returns smallint
  language sql immutable parallel safe as $$
    select (case when steps & 8 <> 0 then 6 when steps & 32 <> 0 then 5 when steps & 16 <> 0 then 4
      when steps & 4 <> 0 then 3 when steps & 2 <> 0 then 2 when steps & 1 <> 0 then 1 else 0 end)::smallint
  $$`;

/** The step columns of the source rollups and the depth each one counts from. */
const STEP_COLUMNS = [
  ['page_views', 1],
  ['survey_starts', 2],
  ['form_submits', 3],
  ['lead_visits', 4],
  ['beneficiary_visits', 5],
  ['state_clicks', 6],
] as const;

/** Visits per rollup key counted at every step they reach, from `steps` (a column or expression). */
const depthCounts = (steps: string) =>
  STEP_COLUMNS.map(
    ([col, depth]) => `count(*) filter (where analytics_visit_depth(${steps}) >= ${depth}) as ${col}`,
  ).join(', ');

const LEAD_KEY = `case when opt_in_date ~ '^\\d{4}-\\d{2}-\\d{2}$' then opt_in_date::date else created_at::date end as day, coalesce(country, '') as country, coalesce(channel, 'Direct') as channel,
  coalesce(source, 'direct') as source, coalesce(campaign, '') as campaign`;
const LEAD_COUNTS = (sign: string) => `sum(${sign}) as leads,
  sum(case when consent_given and tcpa_compliant = 'true' and opted_out_at is null then ${sign} else 0 end) as consenting,
  sum(case when beneficiary is not null then ${sign} else 0 end) as beneficiaries,
  sum(case when visit_tracked then ${sign} else 0 end) as tracked`;
const COUNTS = 'leads, consenting, beneficiaries, tracked';
const KEY_COLUMNS = (period: string) => `${period}, country, channel, source, campaign`;

/** Each statement's changed leads appended to both lead rollups as delta rows (as before, plus `tracked`). */
const leadDeltaInserts = (rows: string) => `
  with d as (
    select * from (select ${LEAD_KEY}, ${LEAD_COUNTS('sign')} from (${rows}) r group by 1, 2, 3, 4, 5) g
    where leads <> 0 or consenting <> 0 or beneficiaries <> 0 or tracked <> 0
  ), daily as (
    insert into lead_daily_source (day, country, channel, source, campaign, ${COUNTS}) select * from d
  )
  insert into lead_monthly_source (month, country, channel, source, campaign, ${COUNTS})
  select date_trunc('month', day)::date, country, channel, source, campaign, sum(leads), sum(consenting),
    sum(beneficiaries), sum(tracked) from d group by 1, 2, 3, 4, 5;`;

/**
 * The visits of the leads in `rows` reach "lead stored" (and "beneficiary answered" once it is set);
 * the steps they newly reach go to the visit source rollups (daily and monthly), in key order.
 */
const markVisits = (rows: string, write: SourceWrite) => `
  with hit as (
    select opt_in_date::date as day, session_id,
      bit_or(case when beneficiary is not null then 48 else 16 end)::smallint as bits
    from ${rows} where visit_tracked group by 1, 2
  ), visit as (
    update analytics_visit v set prev_steps = v.steps, steps = v.steps | h.bits
    from hit h where v.day = h.day and v.session_id = h.session_id and (v.steps | h.bits) <> v.steps
    returning v.day, v.country, v.channel, v.source, v.campaign, v.steps, v.prev_steps
  ), delta as (
    select day, country, channel, source, campaign, ${STEP_COLUMNS.map(
      ([col, depth]) =>
        `count(*) filter (where analytics_visit_depth(steps) >= ${depth} and analytics_visit_depth(prev_steps) < ${depth}) as ${col}`,
    ).join(', ')}
    from visit group by 1, 2, 3, 4, 5
  ), daily as (
    insert into analytics_daily_source as r (day, country, channel, source, campaign, ${STEP_COLUMNS.map(([c]) => c).join(', ')})
    select * from delta order by 1, 2, 3, 4, 5
    ${sourceConflict(write, 'day')}
  )
  insert into analytics_monthly_source as r (month, country, channel, source, campaign, ${STEP_COLUMNS.map(([c]) => c).join(', ')})
  select date_trunc('month', day)::date, country, channel, source, campaign,
    ${STEP_COLUMNS.map(([c]) => `sum(${c})`).join(', ')}
  from delta group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5
  ${sourceConflict(write, 'month')};`;

/**
 * How the visit source rollups are written: `upsert` (one row per key, as this migration left them) or
 * `append` (delta rows, from Migration20261127150000_analytics_rollup_deltas on).
 */
export type SourceWrite = 'upsert' | 'append';
const sourceConflict = (write: SourceWrite, period: string) =>
  write === 'append'
    ? ''
    : `on conflict (${period}, country, channel, source, campaign) do update set
    ${STEP_COLUMNS.map(([c]) => `${c} = r.${c} + excluded.${c}`).join(', ')}`;

/** The lead rollup trigger's function, writing the visit source rollups as `write` says. */
export const leadRollupFunction = (write: SourceWrite) => `
  create or replace function lead_source_rollup() returns trigger language plpgsql as $$
  begin
    if tg_op = 'INSERT' then
      ${leadDeltaInserts('select *, 1 as sign from new_rows')}
      ${markVisits('new_rows', write)}
    elsif tg_op = 'DELETE' then
      ${leadDeltaInserts('select *, -1 as sign from old_rows')}
    else
      ${leadDeltaInserts('select *, 1 as sign from new_rows union all select *, -1 from old_rows')}
      ${markVisits('(select * from new_rows where beneficiary is not null) n', write)}
    end if;
    return null;
  end
  $$`;

const compactSql = (table: string, period: string) => `
  with folded as (
    select ${KEY_COLUMNS(period)} from ${table} group by 1, 2, 3, 4, 5
    having count(*) > 1 or (sum(leads) = 0 and sum(consenting) = 0 and sum(beneficiaries) = 0 and sum(tracked) = 0)
  ), gone as (
    delete from ${table} t using folded f
    where (t.${period}, t.country, t.channel, t.source, t.campaign) = (f.${period}, f.country, f.channel, f.source, f.campaign)
    returning t.*
  )
  insert into ${table} (${KEY_COLUMNS(period)}, ${COUNTS})
  select ${KEY_COLUMNS(period)}, sum(leads), sum(consenting), sum(beneficiaries), sum(tracked) from gone
  group by 1, 2, 3, 4, 5
  having sum(leads) <> 0 or sum(consenting) <> 0 or sum(beneficiaries) <> 0 or sum(tracked) <> 0;`;

const COMPACTION = `
  create or replace function compact_lead_source_rollups() returns void language plpgsql as $$
  begin
    if not pg_try_advisory_xact_lock(hashtext('compact_lead_source_rollups')) then
      return;
    end if;
    ${compactSql('lead_daily_source', 'day')}
    ${compactSql('lead_monthly_source', 'month')}
  end
  $$`;

export class Migration20261127100000_visit_funnel_devices extends Migration {
  override name = 'Migration20261127100000_visit_funnel_devices';

  override up(): void {
    this.addSql(DEPTH_FUNCTION);
    // The lead keeps its browser's analytics session id and whether that session had a visit that day.
    this.addSql(`
      alter table website_lead
        add column session_id text null,
        add column visit_tracked boolean not null default false,
        add constraint website_lead_session_id_length_check check (length(session_id) <= 100)`);
    for (const table of ['lead_daily_source', 'lead_monthly_source']) {
      this.addSql(`alter table ${table} add column tracked bigint not null default 0`);
    }
    for (const table of ['analytics_daily_source', 'analytics_monthly_source']) {
      this.addSql(`alter table ${table} add column lead_visits bigint not null default 0,
        add column beneficiary_visits bigint not null default 0`);
    }
    this.addSql(leadRollupFunction('upsert'));
    this.addSql(COMPACTION);

    // The step columns now count a visit at every step up to its deepest one: recomputed from the visits
    // kept (days whose visits have expired keep their counts per step, as before).
    this.addSql(`
      update analytics_daily_source d set ${STEP_COLUMNS.map(([c]) => `${c} = x.${c}`).join(', ')}
      from (select day, country, channel, source, campaign, ${depthCounts('steps')}
            from analytics_visit group by 1, 2, 3, 4, 5) x
      where (d.day, d.country, d.channel, d.source, d.campaign) = (x.day, x.country, x.channel, x.source, x.campaign)`);
    this.addSql(`
      update analytics_monthly_source m set ${STEP_COLUMNS.map(([c]) => `${c} = x.${c}`).join(', ')}
      from (select date_trunc('month', day)::date as month, country, channel, source, campaign,
              ${STEP_COLUMNS.map(([c]) => `sum(${c}) as ${c}`).join(', ')}
            from analytics_daily_source group by 1, 2, 3, 4, 5) x
      where (m.month, m.country, m.channel, m.source, m.campaign) = (x.month, x.country, x.channel, x.source, x.campaign)`);

    // Device type, browser and operating system of each event (derived from the user agent at ingest).
    this.addSql(`
      alter table analytics_event
        add column device_type text null,
        add column browser text null,
        add column os text null,
        add constraint analytics_event_device_lengths_check check (
          length(device_type) <= 20 and length(browser) <= 50 and length(os) <= 50)`);
    // Visits per day (month) × dimension ('device' | 'browser' | 'os') × value × country ('' unknown).
    for (const [table, period] of [
      ['analytics_daily_device', 'day'],
      ['analytics_monthly_device', 'month'],
    ] as const) {
      this.addSql(`
        create table ${table} (
          ${period} date not null,
          dimension text not null,
          value text not null,
          country text not null,
          count bigint not null default 0,
          primary key (${period}, dimension, value, country)
        )`);
    }
  }

  override down(): void {
    this.addSql('drop table analytics_daily_device, analytics_monthly_device');
    this.addSql(`alter table analytics_event drop constraint analytics_event_device_lengths_check,
      drop column device_type, drop column browser, drop column os`);
    this.addSql('select compact_lead_source_rollups()');
    this.addSql(`create ${ROLLUP_COMPACTION_V1}`);
    this.addSql(leadSourceRollupFunction(LEAD_DELTA_INSERTS_V1));
    for (const table of ['analytics_daily_source', 'analytics_monthly_source']) {
      this.addSql(`alter table ${table} drop column lead_visits, drop column beneficiary_visits`);
    }
    for (const table of ['lead_daily_source', 'lead_monthly_source']) {
      this.addSql(`alter table ${table} drop column tracked`);
    }
    this.addSql(`alter table website_lead drop constraint website_lead_session_id_length_check,
      drop column session_id, drop column visit_tracked`);
    this.addSql('drop function analytics_visit_depth(smallint)');
  }
}
