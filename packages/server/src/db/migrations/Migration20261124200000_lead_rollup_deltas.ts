import { Migration } from '@mikro-orm/migrations';
import {
  LEAD_DELTA_UPSERTS,
  leadDeltas,
  leadSourceRollupFunction,
} from './Migration20261124100000_attribution';

export { leadSourceRollupFunction };

// Lead rollups written as deltas (ADR 055, issue 14): the trigger on website_lead upserted one row per
// day and source, so every submission of the same source and day waited for the previous one's row lock
// until its commit (its WAL flush) — lead submission ran at a quarter of its one-INSERT baseline.
// Now each statement appends its grouped delta rows (no key, no conflict, no lock to wait for); readers
// already sum rows per key. compact_lead_source_rollups() folds each key's rows into one, run every
// minute by the server; concurrent appends are untouched (its delete sees only rows of its snapshot).

const ROLLUPS = [
  { table: 'lead_daily_source', period: 'day' },
  { table: 'lead_monthly_source', period: 'month' },
] as const;
const KEY_COLUMNS = (period: string) => `${period}, country, channel, source, campaign`;

/** Each statement's changed leads as new rows of both rollups, grouped, no-op changes skipped. */
export const LEAD_DELTA_INSERTS_V1 = (rows: string) => `
  with d as (${leadDeltas(rows)}), daily as (
    insert into lead_daily_source (day, country, channel, source, campaign, leads, consenting, beneficiaries)
    select * from d
  )
  insert into lead_monthly_source (month, country, channel, source, campaign, leads, consenting, beneficiaries)
  select date_trunc('month', day)::date, country, channel, source, campaign, sum(leads), sum(consenting),
    sum(beneficiaries) from d group by 1, 2, 3, 4, 5;`;

/** Folds the rows of every key that has more than one (or only zeros) into one row per key. */
const compactSql = (table: string, period: string) => `
  with folded as (
    select ${KEY_COLUMNS(period)} from ${table} group by 1, 2, 3, 4, 5
    having count(*) > 1 or (sum(leads) = 0 and sum(consenting) = 0 and sum(beneficiaries) = 0)
  ), gone as (
    delete from ${table} t using folded f
    where (t.${period}, t.country, t.channel, t.source, t.campaign) = (f.${period}, f.country, f.channel, f.source, f.campaign)
    returning t.*
  )
  insert into ${table} (${KEY_COLUMNS(period)}, leads, consenting, beneficiaries)
  select ${KEY_COLUMNS(period)}, sum(leads), sum(consenting), sum(beneficiaries) from gone group by 1, 2, 3, 4, 5
  having sum(leads) <> 0 or sum(consenting) <> 0 or sum(beneficiaries) <> 0;`;

/** The compaction function (its `or replace` form, so a later migration's down() can restore it). */
export const ROLLUP_COMPACTION_V1 = `or replace function compact_lead_source_rollups() returns void language plpgsql as $$
      begin
        -- One compaction at a time; a second one finds the work done or being done.
        if not pg_try_advisory_xact_lock(hashtext('compact_lead_source_rollups')) then
          return;
        end if;
        ${ROLLUPS.map(({ table, period }) => compactSql(table, period)).join('\n')}
      end
      $$`;

export class Migration20261124200000_lead_rollup_deltas extends Migration {
  override name = 'Migration20261124200000_lead_rollup_deltas';

  override up(): void {
    for (const { table, period } of ROLLUPS) {
      this.addSql(`alter table ${table} drop constraint ${table}_pkey`);
      this.addSql(`create index ${table}_key_idx on ${table} (${KEY_COLUMNS(period)})`);
    }
    this.addSql(leadSourceRollupFunction(LEAD_DELTA_INSERTS_V1));
    this.addSql(`create ${ROLLUP_COMPACTION_V1.trimStart()}`);
  }

  override down(): void {
    this.addSql('select compact_lead_source_rollups()');
    this.addSql('drop function compact_lead_source_rollups()');
    this.addSql(leadSourceRollupFunction(LEAD_DELTA_UPSERTS));
    for (const { table, period } of ROLLUPS) {
      this.addSql(`drop index ${table}_key_idx`);
      this.addSql(`alter table ${table} add primary key (${KEY_COLUMNS(period)})`);
    }
  }
}
