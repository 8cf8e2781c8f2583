import { Migration } from '@mikro-orm/migrations';

// Quality by traffic source (issue 33, part 5; ADR 065): the analytics sources table shows, per channel,
// source and campaign, how many of its leads were accepted, held and rejected and why, and the funnel
// counts the visits whose lead was accepted. A trigger of its own on website_lead (beside the lead
// source rollups', which it leaves as they are) appends delta rows per statement, keyed like the lead
// rollups: a verdict changed by an admin moves its lead from one count to the other, a deleted lead
// leaves them. compact_lead_quality_rollups() folds them, as the lead rollups are folded.

const KEY = `case when opt_in_date ~ '^\\d{4}-\\d{2}-\\d{2}$' then opt_in_date::date else created_at::date end as day,
  coalesce(country, '') as country, coalesce(channel, 'Direct') as channel, coalesce(source, 'direct') as source,
  coalesce(campaign, '') as campaign`;
const KEY_COLUMNS = (period: string) => `${period}, country, channel, source, campaign`;
const COUNTS = ['accepted', 'held', 'rejected', 'accepted_tracked'] as const;
const countsOf = (sign: string) => `
  sum(case when quality_verdict = 'accept' then ${sign} else 0 end) as accepted,
  sum(case when quality_verdict = 'hold' then ${sign} else 0 end) as held,
  sum(case when quality_verdict = 'reject' then ${sign} else 0 end) as rejected,
  sum(case when quality_verdict = 'accept' and visit_tracked then ${sign} else 0 end) as accepted_tracked`;

/** The changed leads of one statement (`rows`, with `sign`) as delta rows of the four tables. */
const deltas = (rows: string) => `
  with r as (${rows}), d as (
    select * from (select ${KEY}, ${countsOf('sign')} from r group by 1, 2, 3, 4, 5) g
    where ${COUNTS.map((c) => `${c} <> 0`).join(' or ')}
  ), reasons as (
    select * from (
      select ${KEY}, reason, sum(sign) as leads from r cross join unnest(quality_reasons) reason
      group by 1, 2, 3, 4, 5, 6) g
    where leads <> 0
  ), daily as (
    insert into lead_daily_quality (${KEY_COLUMNS('day')}, ${COUNTS.join(', ')}) select * from d
  ), monthly as (
    insert into lead_monthly_quality (${KEY_COLUMNS('month')}, ${COUNTS.join(', ')})
    select date_trunc('month', day)::date, country, channel, source, campaign,
      ${COUNTS.map((c) => `sum(${c})`).join(', ')} from d group by 1, 2, 3, 4, 5
  ), daily_reasons as (
    insert into lead_daily_reason (${KEY_COLUMNS('day')}, reason, leads) select * from reasons
  )
  insert into lead_monthly_reason (${KEY_COLUMNS('month')}, reason, leads)
  select date_trunc('month', day)::date, country, channel, source, campaign, reason, sum(leads)
  from reasons group by 1, 2, 3, 4, 5, 6;`;

const compact = (table: string, keys: string, counts: readonly string[]) => `
  with folded as (
    select ${keys} from ${table} group by ${keys}
    having count(*) > 1 or (${counts.map((c) => `sum(${c}) = 0`).join(' and ')})
  ), gone as (
    delete from ${table} t using folded f
    where (${keys
      .split(', ')
      .map((k) => `t.${k}`)
      .join(', ')}) = (${keys
      .split(', ')
      .map((k) => `f.${k}`)
      .join(', ')})
    returning t.*
  )
  insert into ${table} (${keys}, ${counts.join(', ')})
  select ${keys}, ${counts.map((c) => `sum(${c})`).join(', ')} from gone group by ${keys}
  having ${counts.map((c) => `sum(${c}) <> 0`).join(' or ')};`;

export class Migration20261129110000_lead_quality_sources extends Migration {
  override name = 'Migration20261129110000_lead_quality_sources';

  override up(): void {
    for (const [table, period] of [
      ['lead_daily_quality', 'day'],
      ['lead_monthly_quality', 'month'],
    ] as const) {
      this.addSql(`
        create table ${table} (
          ${period} date not null, country text not null, channel text not null, source text not null,
          campaign text not null, ${COUNTS.map((c) => `${c} bigint not null default 0`).join(', ')}
        )`);
      this.addSql(`create index ${table}_key_idx on ${table} (${KEY_COLUMNS(period)})`);
    }
    for (const [table, period] of [
      ['lead_daily_reason', 'day'],
      ['lead_monthly_reason', 'month'],
    ] as const) {
      this.addSql(`
        create table ${table} (
          ${period} date not null, country text not null, channel text not null, source text not null,
          campaign text not null, reason text not null, leads bigint not null default 0
        )`);
      this.addSql(`create index ${table}_key_idx on ${table} (${KEY_COLUMNS(period)}, reason)`);
    }
    this.addSql(`
      create function lead_quality_rollup() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          ${deltas('select *, 1 as sign from new_rows')}
        elsif tg_op = 'DELETE' then
          ${deltas('select *, -1 as sign from old_rows')}
        else
          ${deltas(`select *, 1 as sign from new_rows union all select *, -1 from old_rows`)}
        end if;
        return null;
      end
      $$`);
    this.addSql(`create trigger website_lead_quality_insert after insert on website_lead
      referencing new table as new_rows for each statement execute function lead_quality_rollup()`);
    // Any change: one that moves no count (a beneficiary named) adds and takes away the same, and is dropped.
    this.addSql(`create trigger website_lead_quality_update after update on website_lead
      referencing old table as old_rows new table as new_rows for each statement execute function lead_quality_rollup()`);
    this.addSql(`create trigger website_lead_quality_delete after delete on website_lead
      referencing old table as old_rows for each statement execute function lead_quality_rollup()`);
    this.addSql(`
      create function lead_quality_rollup_clear() returns trigger language plpgsql as $$
      begin
        truncate lead_daily_quality, lead_monthly_quality, lead_daily_reason, lead_monthly_reason;
        return null;
      end
      $$`);
    this.addSql(`create trigger website_lead_quality_truncate after truncate on website_lead
      for each statement execute function lead_quality_rollup_clear()`);
    // The leads stored before lead quality: all accepted (the lead_quality migration says so).
    this.addSql(`
      with d as (select ${KEY}, ${countsOf('1')} from website_lead group by 1, 2, 3, 4, 5), daily as (
        insert into lead_daily_quality (${KEY_COLUMNS('day')}, ${COUNTS.join(', ')}) select * from d
      )
      insert into lead_monthly_quality (${KEY_COLUMNS('month')}, ${COUNTS.join(', ')})
      select date_trunc('month', day)::date, country, channel, source, campaign,
        ${COUNTS.map((c) => `sum(${c})`).join(', ')} from d group by 1, 2, 3, 4, 5`);
    this.addSql(`
      create function compact_lead_quality_rollups() returns void language plpgsql as $$
      begin
        if not pg_try_advisory_xact_lock(hashtext('compact_lead_quality_rollups')) then
          return;
        end if;
        ${compact('lead_daily_quality', KEY_COLUMNS('day'), COUNTS)}
        ${compact('lead_monthly_quality', KEY_COLUMNS('month'), COUNTS)}
        ${compact('lead_daily_reason', `${KEY_COLUMNS('day')}, reason`, ['leads'])}
        ${compact('lead_monthly_reason', `${KEY_COLUMNS('month')}, reason`, ['leads'])}
      end
      $$`);
  }

  override down(): void {
    this.addSql('drop function if exists compact_lead_quality_rollups()');
    for (const op of ['insert', 'update', 'delete', 'truncate']) {
      this.addSql(`drop trigger if exists website_lead_quality_${op} on website_lead`);
    }
    this.addSql('drop function if exists lead_quality_rollup(), lead_quality_rollup_clear()');
    this.addSql(
      'drop table if exists lead_daily_quality, lead_monthly_quality, lead_daily_reason, lead_monthly_reason',
    );
  }
}
