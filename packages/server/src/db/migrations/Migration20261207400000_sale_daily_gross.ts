import { Migration } from '@mikro-orm/migrations';

// One meaning per money word (issue 47, ADR 073): `sold` counts the leads a buyer bought, returned ones
// included; `returned` counts the returns; `revenue` is gross and `net` is revenue after returns. The
// money rollup (migration sale_daily_rollup, ADR 070) kept only the sales not returned, so the dashboard
// could show neither the returns nor the gross revenue. It now keeps every sold website lead, with its
// returns beside it: sold and revenue_cents count all of them, returned and returned_cents the returned
// ones (net = revenue_cents − returned_cents). A return is an update of its sale: the old row (−1) and
// the new one (+1) leave sold and revenue as they were and add one to returned and its price to
// returned_cents. The triggers, the rebuild and their locking are the first migration's; the rows kept
// until now are summed again here in the zone they were in.

/** The sales the rollup counts: every website lead a buyer bought (returned ones too). */
const KEPT = `lead_kind = 'website' and status = 'sold'`;
/** 1 for a returned sale, else 0. */
const RETURNED = '(case when returned_at is not null then 1 else 0 end)';

/** Adds the rows of `rows` (lead_sale columns and a `sign`) to the rollup, dated in the zone `zone`. */
const DELTA = (rows: string) => `
          insert into lead_sale_daily as t
            (day, country, channel, source, campaign, sold, revenue_cents, returned, returned_cents)
          select (created_at at time zone zone)::date, country, channel, source, campaign, sum(sign)::bigint,
            sum(sign * coalesce(price_cents, 0))::bigint, sum(sign * ${RETURNED})::bigint,
            sum(sign * ${RETURNED} * coalesce(price_cents, 0))::bigint
          from (${rows}) r where ${KEPT}
          group by 1, 2, 3, 4, 5
          having sum(sign) <> 0 or sum(sign * coalesce(price_cents, 0)) <> 0 or sum(sign * ${RETURNED}) <> 0
            or sum(sign * ${RETURNED} * coalesce(price_cents, 0)) <> 0
          order by 1, 2, 3, 4, 5
          on conflict on constraint lead_sale_daily_key do update
            set sold = t.sold + excluded.sold, revenue_cents = t.revenue_cents + excluded.revenue_cents,
              returned = t.returned + excluded.returned,
              returned_cents = t.returned_cents + excluded.returned_cents;`;

const COLUMNS = 'lead_kind, status, returned_at, created_at, country, channel, source, campaign, price_cents';

export class Migration20261207400000_sale_daily_gross extends Migration {
  override name = 'Migration20261207400000_sale_daily_gross';

  override up(): void {
    this.addSql(`
      alter table lead_sale_daily
        add column returned bigint not null default 0,
        add column returned_cents bigint not null default 0`);
    this.addSql(`
      create or replace function lead_sale_daily_apply() returns trigger language plpgsql as $$
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
    this.addSql(`
      create or replace function lead_sale_daily_rebuild(p_zone text) returns void language plpgsql as $$
      begin
        lock table lead_sale_daily in exclusive mode;
        delete from lead_sale_daily;
        insert into lead_sale_daily
          (day, country, channel, source, campaign, sold, revenue_cents, returned, returned_cents)
        select (created_at at time zone p_zone)::date, country, channel, source, campaign, count(*),
          coalesce(sum(price_cents), 0), sum(${RETURNED}), coalesce(sum(${RETURNED} * price_cents), 0)
        from lead_sale where ${KEPT}
        group by 1, 2, 3, 4, 5;
        insert into lead_sale_daily_zone (time_zone) values (p_zone)
        on conflict (one) do update set time_zone = excluded.time_zone;
      end
      $$`);
    // The rows kept so far counted the sales not returned: summed again, in their zone, when there is one.
    this.addSql('select lead_sale_daily_rebuild(time_zone) from lead_sale_daily_zone');
  }
}
