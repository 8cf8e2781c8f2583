import { Migration } from '@mikro-orm/migrations';
import { leadRollupFunction } from './Migration20261127100000_visit_funnel_devices';

// Analytics rollups written as deltas (issue 23), as the lead rollups already are (ADR 055): every track
// batch upserted the same rows (today's counts per type, country, source, referrer, device), so a second
// writer only queued on the first one's row locks until its commit, and ingestion had one writer — the
// route waited on it. Now each batch appends its grouped delta rows (no key, no conflict, no lock to wait
// for); readers already sum rows per key. compact_analytics_rollups() folds each key's rows into one,
// run every minute by the server; concurrent appends are untouched (its delete sees only the rows of its
// snapshot). The visits (analytics_visit) and a day's visitors (analytics_day_visitor) keep their keys:
// they decide what is new, and only the same visit or visitor ever meets there.

/** Each delta rollup: its key columns and its count columns, as of this migration. */
export const ANALYTICS_DELTA_ROLLUPS = [
  { table: 'analytics_daily_type', keys: ['day', 'event_type'], counts: ['count'] },
  { table: 'analytics_daily_country', keys: ['day', 'event_type', 'country'], counts: ['count'] },
  { table: 'analytics_monthly_country', keys: ['month', 'event_type', 'country'], counts: ['count'] },
  { table: 'analytics_daily_referrer', keys: ['day', 'event_type', 'referrer'], counts: ['count'] },
  { table: 'analytics_monthly_referrer', keys: ['month', 'event_type', 'referrer'], counts: ['count'] },
  {
    table: 'analytics_daily_country_referrer',
    keys: ['country', 'day', 'event_type', 'referrer'],
    counts: ['count'],
  },
  {
    table: 'analytics_monthly_country_referrer',
    keys: ['country', 'month', 'event_type', 'referrer'],
    counts: ['count'],
  },
  { table: 'analytics_daily_device', keys: ['day', 'dimension', 'value', 'country'], counts: ['count'] },
  { table: 'analytics_monthly_device', keys: ['month', 'dimension', 'value', 'country'], counts: ['count'] },
  ...(['day', 'month'] as const).map((period) => ({
    table: `analytics_${period === 'day' ? 'daily' : 'monthly'}_source`,
    keys: [period, 'country', 'channel', 'source', 'campaign'],
    counts: [
      'visits',
      'visitors',
      'page_views',
      'survey_starts',
      'form_submits',
      'lead_visits',
      'beneficiary_visits',
      'state_clicks',
    ],
  })),
] as const;

/** Folds the rows of every key that has more than one (or only zeros) into one row per key. */
function compactSql({ table, keys, counts }: (typeof ANALYTICS_DELTA_ROLLUPS)[number]): string {
  const key = keys.join(', ');
  const ordinals = keys.map((_, i) => i + 1).join(', ');
  const zero = counts.map((c) => `sum(${c}) = 0`).join(' and ');
  const nonZero = counts.map((c) => `sum(${c}) <> 0`).join(' or ');
  return `
    with folded as (
      select ${key} from ${table} group by ${ordinals} having count(*) > 1 or (${zero})
    ), gone as (
      delete from ${table} t using folded f
      where (${keys.map((k) => `t.${k}`).join(', ')}) = (${keys.map((k) => `f.${k}`).join(', ')})
      returning t.*
    )
    insert into ${table} (${key}, ${counts.join(', ')})
    select ${key}, ${counts.map((c) => `sum(${c})`).join(', ')} from gone group by ${ordinals}
    having ${nonZero};`;
}

export class Migration20261127150000_analytics_rollup_deltas extends Migration {
  override name = 'Migration20261127150000_analytics_rollup_deltas';

  override up(): void {
    for (const { table, keys } of ANALYTICS_DELTA_ROLLUPS) {
      this.addSql(`alter table ${table} drop constraint ${table}_pkey`);
      this.addSql(`create index ${table}_key_idx on ${table} (${keys.join(', ')})`);
    }
    // The lead trigger adds the steps leads reach to the visit source rollups: appended too.
    this.addSql(leadRollupFunction('append'));
    this.addSql(`
      create function compact_analytics_rollups() returns void language plpgsql as $$
      begin
        -- One compaction at a time; a second one finds the work done or being done.
        if not pg_try_advisory_xact_lock(hashtext('compact_analytics_rollups')) then
          return;
        end if;
        ${ANALYTICS_DELTA_ROLLUPS.map(compactSql).join('\n')}
      end
      $$`);
  }

  override down(): void {
    this.addSql('select compact_analytics_rollups()');
    this.addSql('drop function compact_analytics_rollups()');
    this.addSql(leadRollupFunction('upsert'));
    for (const { table, keys } of ANALYTICS_DELTA_ROLLUPS) {
      this.addSql(`drop index ${table}_key_idx`);
      this.addSql(`alter table ${table} add primary key (${keys.join(', ')})`);
    }
  }
}
