import { Migration } from '@mikro-orm/migrations';

// Money in whole cents (house rule; issue 34's columns were numeric dollars): a buyer's price, a cap's
// spent amount, a sale's price and an attempt's price and reservation become bigint cents, renamed
// *_cents so no reader mistakes them for dollars. The sale functions take cents. Dollars appear only at
// the edges (the admin API's answers and input, CSV, screens).

/** Each money column, its new name, and its numeric type before (for down()). */
const MONEY_COLUMNS: [table: string, from: string, to: string, before: string][] = [
  ['buyer', 'price', 'price_cents', 'numeric(12, 2)'],
  ['buyer_cap_usage', 'amount', 'amount_cents', 'numeric(14, 2)'],
  ['lead_sale', 'price', 'price_cents', 'numeric(12, 2)'],
  ['sale_attempt', 'price', 'price_cents', 'numeric(12, 2)'],
  ['sale_attempt', 'reserved', 'reserved_cents', 'numeric(12, 2)'],
];

const DROP_FUNCTIONS = (money: 'numeric' | 'bigint') => [
  `drop function if exists sale_unsold(uuid, text, uuid[], text[], timestamptz)`,
  `drop function if exists sale_finish(uuid, uuid, uuid, text, text, ${money}, text, integer, jsonb, integer, text, text[], ${money}, timestamptz, integer, text)`,
  `drop function if exists sale_begin(uuid, text, uuid[], text[], uuid, uuid, timestamptz, text[], integer[], ${money}[], ${money}, integer)`,
  `drop function if exists buyer_reserve(uuid, text[], integer[], ${money}[], ${money})`,
];

/** The sale functions of Migration20261130100000_buyers, over the money columns named `c`, typed `money`. */
function saleFunctions(money: 'numeric' | 'bigint', c: (name: string) => string): string[] {
  return [
    `
    create function buyer_reserve(p_buyer uuid, p_keys text[], p_leads integer[], p_amounts ${money}[],
      p_amount ${money}) returns text language plpgsql as $$
    declare i integer; u buyer_cap_usage;
    begin
      if cardinality(p_keys) = 0 then return null; end if;
      insert into buyer_cap_usage (buyer_id, period_key)
      select p_buyer, k from unnest(p_keys) k on conflict do nothing;
      for i in 1 .. cardinality(p_keys) loop
        select * into u from buyer_cap_usage where buyer_id = p_buyer and period_key = p_keys[i] for update;
        if (p_leads[i] is not null and u.leads + 1 > p_leads[i])
          or (p_amounts[i] is not null and u.${c('amount')} + p_amount > p_amounts[i]) then
          return p_keys[i];
        end if;
      end loop;
      update buyer_cap_usage set leads = leads + 1, ${c('amount')} = ${c('amount')} + p_amount
      where buyer_id = p_buyer and period_key = any(p_keys);
      return null;
    end $$`,
    `
    create function sale_begin(p_lead uuid, p_kind text, p_skip_buyers uuid[], p_skip_reasons text[],
      p_attempt uuid, p_buyer uuid, p_at timestamptz, p_keys text[], p_leads integer[], p_amounts ${money}[],
      p_price ${money}, p_lease_seconds integer) returns text language plpgsql as $$
    declare full_key text;
    begin
      insert into sale_attempt (id, buyer_id, lead_id, lead_kind, at, outcome, reason)
      select gen_random_uuid(), b, p_lead, p_kind, p_at, 'skipped', r
      from unnest(p_skip_buyers, p_skip_reasons) with ordinality as s(b, r, n) order by n
      on conflict do nothing;
      if p_buyer is null then return null; end if;
      full_key := buyer_reserve(p_buyer, p_keys, p_leads, p_amounts, p_price);
      if full_key is not null then return full_key; end if;
      insert into sale_attempt (id, buyer_id, lead_id, lead_kind, at, outcome, cap_keys, ${c('reserved')})
      values (p_attempt, p_buyer, p_lead, p_kind, p_at, 'sending', p_keys, p_price);
      update lead_sale set claimed_until = now() + make_interval(secs => p_lease_seconds) where lead_id = p_lead;
      return null;
    end $$`,
    `
    create function sale_finish(p_attempt uuid, p_lead uuid, p_buyer uuid, p_outcome text, p_reason text,
      p_price ${money}, p_reference text, p_latency integer, p_request jsonb, p_status integer,
      p_response text, p_keys text[], p_reserved ${money}, p_sold_at timestamptz, p_max_errors integer,
      p_paused_reason text) returns boolean language plpgsql as $$
    declare sold boolean := p_outcome = 'accepted';
    declare failed boolean := p_outcome in ('error', 'timeout');
    declare paused boolean := false;
    begin
      update sale_attempt set outcome = p_outcome, reason = p_reason, ${c('price')} = p_price, reference = p_reference,
        latency_ms = p_latency, request = p_request, status = p_status, response = p_response
      where id = p_attempt;
      if cardinality(p_keys) > 0 then
        update buyer_cap_usage set leads = leads - case when sold then 0 else 1 end,
          ${c('amount')} = ${c('amount')} - p_reserved + case when sold then coalesce(p_price, 0) else 0 end
        where buyer_id = p_buyer and period_key = any(p_keys);
      end if;
      if sold then
        update lead_sale set status = 'sold', buyer_id = p_buyer, ${c('price')} = p_price, sold_at = p_sold_at,
          claimed_until = null, updated_at = now()
        where lead_id = p_lead;
      end if;
      if failed then
        update buyer set consecutive_errors = consecutive_errors + 1,
          status = case when consecutive_errors + 1 >= p_max_errors then 'paused' else status end,
          paused_reason = case when consecutive_errors + 1 >= p_max_errors and status = 'active'
            then p_paused_reason else paused_reason end,
          updated_at = now()
        where id = p_buyer
        returning consecutive_errors = p_max_errors into paused;
      elsif sold then
        update buyer set consecutive_errors = 0, idle_since = now() where id = p_buyer;
      else
        update buyer set consecutive_errors = 0 where id = p_buyer and consecutive_errors <> 0;
      end if;
      return coalesce(paused, false);
    end $$`,
    `
    create function sale_unsold(p_lead uuid, p_kind text, p_skip_buyers uuid[], p_skip_reasons text[],
      p_at timestamptz) returns void language plpgsql as $$
    begin
      perform sale_begin(p_lead, p_kind, p_skip_buyers, p_skip_reasons, null, null, p_at, null, null, null, null, null);
      update lead_sale set status = 'unsold', claimed_until = null, updated_at = now()
      where lead_id = p_lead and status = 'pending';
    end $$`,
  ];
}

export class Migration20261204100000_buyer_money_cents extends Migration {
  override name = 'Migration20261204100000_buyer_money_cents';

  override up(): void {
    for (const sql of DROP_FUNCTIONS('numeric')) this.addSql(sql);
    for (const [table, from, to] of MONEY_COLUMNS) {
      this.addSql(`alter table ${table} alter column ${from} type bigint using round(${from} * 100)::bigint`);
      this.addSql(`alter table ${table} rename column ${from} to ${to}`);
    }
    for (const sql of saleFunctions('bigint', (name) => `${name}_cents`)) this.addSql(sql);
  }

  override down(): void {
    for (const sql of DROP_FUNCTIONS('bigint')) this.addSql(sql);
    for (const [table, from, to, before] of MONEY_COLUMNS) {
      this.addSql(`alter table ${table} rename column ${to} to ${from}`);
      this.addSql(`alter table ${table} alter column ${from} type ${before} using ${from} / 100.0`);
    }
    for (const sql of saleFunctions('numeric', (name) => name)) this.addSql(sql);
  }
}
