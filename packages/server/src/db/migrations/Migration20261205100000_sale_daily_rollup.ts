import { Migration } from '@mikro-orm/migrations';

// The sales' money by day (ADR 070, "The money rollup"): the dashboard's revenue (the sources table, the
// money totals and the daily chart) summed the sold website leads of lead_sale on every request — all of
// them without a date filter, each dated on the fly in the business time zone. lead_sale_daily keeps
// them summed per business day and per country, channel, source and campaign (the sources table's and the
// filters' keys, nulls kept as they are): `sold` counts the sales not returned, `revenue_cents` adds
// their prices (a return takes its sale off both, as the raw sums do).
//
// The business day needs TIME_ZONE, which only the app knows: lead_sale_daily_zone holds the zone the
// rows were summed in, written by lead_sale_daily_rebuild(zone). Until a rebuild has run (a new or
// migrated database) there is no zone, the triggers write nothing and the dashboard sums lead_sale as
// before; the dashboard runs the rebuild the first time it finds the zone missing or another one, and so
// does `analytics:rebuild-rollups`.
//
// Statement triggers on lead_sale add each statement's changes as deltas (inserted rows +1, deleted rows
// -1, an update both), grouped and upserted in key order. Concurrency: a trigger takes the rollup in row
// exclusive mode before it reads the zone, and a rebuild holds it in exclusive mode, so a change
// committed before the rebuild's snapshot is in the rebuilt sums and any other one is added after the
// rebuild by its trigger, in the new zone. Emptying lead_sale (truncate) empties the rollup.

/** The sales the rollup counts: website leads sold and not returned (the dashboard's revenue). */
const KEPT = `lead_kind = 'website' and status = 'sold' and returned_at is null`;

/** Adds the rows of `rows` (lead_sale columns and a `sign`) to the rollup, dated in the zone `zone`. */
const DELTA = (rows: string) => `
          insert into lead_sale_daily as t (day, country, channel, source, campaign, sold, revenue_cents)
          select (created_at at time zone zone)::date, country, channel, source, campaign, sum(sign)::bigint,
            sum(sign * coalesce(price_cents, 0))::bigint
          from (${rows}) r where ${KEPT}
          group by 1, 2, 3, 4, 5
          having sum(sign) <> 0 or sum(sign * coalesce(price_cents, 0)) <> 0
          order by 1, 2, 3, 4, 5
          on conflict on constraint lead_sale_daily_key do update
            set sold = t.sold + excluded.sold, revenue_cents = t.revenue_cents + excluded.revenue_cents;`;

const COLUMNS = 'lead_kind, status, returned_at, created_at, country, channel, source, campaign, price_cents';

export class Migration20261205100000_sale_daily_rollup extends Migration {
  override name = 'Migration20261205100000_sale_daily_rollup';

  override up(): void {
    this.addSql(`
      create table lead_sale_daily (
        day date not null,
        country text null,
        channel text null,
        source text null,
        campaign text null,
        sold bigint not null,
        revenue_cents bigint not null,
        constraint lead_sale_daily_key unique nulls not distinct (day, channel, source, campaign, country)
      )`);
    this.addSql(`
      create table lead_sale_daily_zone (
        one boolean primary key default true check (one),
        time_zone text not null
      )`);

    this.addSql(`
      create function lead_sale_daily_apply() returns trigger language plpgsql as $$
      declare zone text;
      begin
        -- Statements that touch no counted sale (a pending sale inserted or claimed) write nothing.
        if tg_op = 'INSERT' then
          if not exists (select 1 from new_rows where ${KEPT}) then return null; end if;
        elsif tg_op = 'DELETE' then
          if not exists (select 1 from old_rows where ${KEPT}) then return null; end if;
        elsif not exists (select 1 from new_rows where ${KEPT})
          and not exists (select 1 from old_rows where ${KEPT}) then
          return null;
        end if;
        -- Waits while a rebuild runs; then the zone read is the rebuilt rows' zone.
        lock table lead_sale_daily in row exclusive mode;
        select time_zone into zone from lead_sale_daily_zone;
        if zone is null then
          return null;
        end if;
        if tg_op = 'INSERT' then
          ${DELTA(`select ${COLUMNS}, 1 as sign from new_rows`)}
        elsif tg_op = 'DELETE' then
          ${DELTA(`select ${COLUMNS}, -1 as sign from old_rows`)}
        else
          ${DELTA(`select ${COLUMNS}, 1 as sign from new_rows union all select ${COLUMNS}, -1 from old_rows`)}
        end if;
        return null;
      end
      $$`);
    for (const [op, rows] of [
      ['insert', 'new table as new_rows'],
      ['update', 'old table as old_rows new table as new_rows'],
      ['delete', 'old table as old_rows'],
    ] as const) {
      this.addSql(`
        create trigger lead_sale_daily_${op} after ${op} on lead_sale
        referencing ${rows} for each statement execute function lead_sale_daily_apply()`);
    }
    this.addSql(`
      create function lead_sale_daily_truncated() returns trigger language plpgsql as $$
      begin
        delete from lead_sale_daily;
        return null;
      end
      $$`);
    this.addSql(`
      create trigger lead_sale_daily_truncate after truncate on lead_sale
      for each statement execute function lead_sale_daily_truncated()`);

    // The rollup summed again from lead_sale in p_zone (the dashboard's, the rebuild command's).
    this.addSql(`
      create function lead_sale_daily_rebuild(p_zone text) returns void language plpgsql as $$
      begin
        lock table lead_sale_daily in exclusive mode;
        delete from lead_sale_daily;
        insert into lead_sale_daily (day, country, channel, source, campaign, sold, revenue_cents)
        select (created_at at time zone p_zone)::date, country, channel, source, campaign, count(*),
          coalesce(sum(price_cents), 0)
        from lead_sale where ${KEPT}
        group by 1, 2, 3, 4, 5;
        insert into lead_sale_daily_zone (time_zone) values (p_zone)
        on conflict (one) do update set time_zone = excluded.time_zone;
      end
      $$`);
  }

  override down(): void {
    for (const op of ['insert', 'update', 'delete', 'truncate']) {
      this.addSql(`drop trigger lead_sale_daily_${op} on lead_sale`);
    }
    this.addSql('drop function lead_sale_daily_rebuild(text)');
    this.addSql('drop function lead_sale_daily_truncated()');
    this.addSql('drop function lead_sale_daily_apply()');
    this.addSql('drop table lead_sale_daily_zone');
    this.addSql('drop table lead_sale_daily');
  }
}
