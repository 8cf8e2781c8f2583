import { Migration } from '@mikro-orm/migrations';

// Issue 47, items 2–4 (ADR 069, "Unknown outcomes"): a post whose outcome nobody knows — the process died
// while it was in flight, or the buyer's answer was cut — is `unknown`. Its cap reservation is kept (the
// buyer may have taken the lead: its cap never counts fewer leads than it received), and the lead's sale
// reads `unknown` and stops there (never offered to the next buyer) until an admin settles it:
// sale_settle() books it as the buyer's sale, or closes the attempt (caps released) and queues the lead's
// waterfall again from where it stopped.
//
// sale_begin() also checks, in the statement that reserves the caps and right before the post, that the
// buyer is still active (a pause is immediate), and that its error streak plus the posts in flight to it
// stay under maxConsecutiveErrors (auto-pause at exactly the limit however many leads are in flight):
// '!paused' and '!busy' tell the run to skip the buyer, or to wait for a slot and try again.

const OUTCOMES_BEFORE = `'sending', 'accepted', 'rejected', 'duplicate', 'error', 'timeout', 'skipped'`;
const STATUSES_BEFORE = `'pending', 'sold', 'unsold', 'not_for_sale'`;

const SALE_BEGIN_BEFORE = `
    create function sale_begin(p_lead uuid, p_kind text, p_skip_buyers uuid[], p_skip_reasons text[],
      p_attempt uuid, p_buyer uuid, p_at timestamptz, p_keys text[], p_leads integer[], p_amounts bigint[],
      p_price bigint, p_lease_seconds integer) returns text language plpgsql as $$
    declare full_key text;
    begin
      insert into sale_attempt (id, buyer_id, lead_id, lead_kind, at, outcome, reason)
      select gen_random_uuid(), b, p_lead, p_kind, p_at, 'skipped', r
      from unnest(p_skip_buyers, p_skip_reasons) with ordinality as s(b, r, n) order by n
      on conflict do nothing;
      if p_buyer is null then return null; end if;
      full_key := buyer_reserve(p_buyer, p_keys, p_leads, p_amounts, p_price);
      if full_key is not null then return full_key; end if;
      insert into sale_attempt (id, buyer_id, lead_id, lead_kind, at, outcome, cap_keys, reserved_cents)
      values (p_attempt, p_buyer, p_lead, p_kind, p_at, 'sending', p_keys, p_price);
      update lead_sale set claimed_until = now() + make_interval(secs => p_lease_seconds) where lead_id = p_lead;
      return null;
    end $$`;

const SALE_UNSOLD = (args: string) => `
    create function sale_unsold(p_lead uuid, p_kind text, p_skip_buyers uuid[], p_skip_reasons text[],
      p_at timestamptz) returns void language plpgsql as $$
    begin
      perform sale_begin(p_lead, p_kind, p_skip_buyers, p_skip_reasons, ${args});
      update lead_sale set status = 'unsold', claimed_until = null, updated_at = now()
      where lead_id = p_lead and status = 'pending';
    end $$`;

const SALE_FINISH = (unknown: boolean) => `
    create or replace function sale_finish(p_attempt uuid, p_lead uuid, p_buyer uuid, p_outcome text, p_reason text,
      p_price bigint, p_reference text, p_latency integer, p_request jsonb, p_status integer,
      p_response text, p_keys text[], p_reserved bigint, p_sold_at timestamptz, p_max_errors integer,
      p_paused_reason text) returns boolean language plpgsql as $$
    declare sold boolean := p_outcome = 'accepted';
    ${
      unknown
        ? `-- Unknown (a cut answer): the buyer may have the lead. The reservation stays, the lead waits.
    declare kept boolean := p_outcome in ('accepted', 'unknown');
    declare failed boolean := p_outcome in ('error', 'timeout', 'unknown');`
        : `declare kept boolean := p_outcome = 'accepted';
    declare failed boolean := p_outcome in ('error', 'timeout');`
    }
    declare paused boolean := false;
    begin
      ${
        unknown
          ? `-- The buyer's row first, as sale_begin() takes it before the caps: no two runs wait on each other.
      perform 1 from buyer where id = p_buyer for no key update;`
          : ''
      }
      update sale_attempt set outcome = p_outcome, reason = p_reason, price_cents = p_price, reference = p_reference,
        latency_ms = p_latency, request = p_request, status = p_status, response = p_response
      where id = p_attempt;
      if cardinality(p_keys) > 0 and not (kept and not sold) then
        update buyer_cap_usage set leads = leads - case when sold then 0 else 1 end,
          amount_cents = amount_cents - p_reserved + case when sold then coalesce(p_price, 0) else 0 end
        where buyer_id = p_buyer and period_key = any(p_keys);
      end if;
      if sold then
        update lead_sale set status = 'sold', buyer_id = p_buyer, price_cents = p_price, sold_at = p_sold_at,
          claimed_until = null, updated_at = now()
        where lead_id = p_lead;
      elsif kept then
        update lead_sale set status = 'unknown', claimed_until = null, updated_at = now() where lead_id = p_lead;
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
    end $$`;

export class Migration20261207300000_sale_unknown extends Migration {
  override name = 'Migration20261207300000_sale_unknown';

  override up(): void {
    this.addSql('alter table sale_attempt drop constraint sale_attempt_outcome_check');
    this.addSql(
      `alter table sale_attempt add constraint sale_attempt_outcome_check check (outcome in (${OUTCOMES_BEFORE}, 'unknown'))`,
    );
    this.addSql('alter table lead_sale drop constraint lead_sale_status_check');
    this.addSql(
      `alter table lead_sale add constraint lead_sale_status_check check (status in (${STATUSES_BEFORE}, 'unknown'))`,
    );
    // Who settled an unknown outcome, and when (the outcome then reads accepted or rejected).
    this.addSql(
      'alter table sale_attempt add column settled_by text null, add column settled_at timestamptz null',
    );
    // A buyer's posts in flight (counted by sale_begin) and its sales to settle.
    this.addSql(
      `create index sale_attempt_open_idx on sale_attempt (buyer_id, at) where outcome in ('sending', 'unknown') and not test`,
    );
    this.addSql(`create index lead_sale_unknown_idx on lead_sale (created_at) where status = 'unknown'`);

    this.addSql('drop function sale_unsold(uuid, text, uuid[], text[], timestamptz)');
    this.addSql(
      'drop function sale_begin(uuid, text, uuid[], text[], uuid, uuid, timestamptz, text[], integer[], bigint[], bigint, integer)',
    );
    this.addSql(`
    create function sale_begin(p_lead uuid, p_kind text, p_skip_buyers uuid[], p_skip_reasons text[],
      p_attempt uuid, p_buyer uuid, p_at timestamptz, p_keys text[], p_leads integer[], p_amounts bigint[],
      p_price bigint, p_lease_seconds integer, p_max_errors integer) returns text language plpgsql as $$
    declare full_key text; b buyer;
    begin
      insert into sale_attempt (id, buyer_id, lead_id, lead_kind, at, outcome, reason)
      select gen_random_uuid(), s.b, p_lead, p_kind, p_at, 'skipped', s.r
      from unnest(p_skip_buyers, p_skip_reasons) with ordinality as s(b, r, n) order by n
      on conflict do nothing;
      if p_buyer is null then return null; end if;
      -- The buyer's row, locked: a pause (an admin's, or sale_finish's) and the other runs' starts to this
      -- buyer wait for this statement, and this one sees theirs.
      select * into b from buyer where id = p_buyer for no key update;
      if not found or b.status <> 'active' then return '!paused'; end if;
      -- Posts in flight: sending attempts whose run still holds its lead. One a dead process left stops
      -- counting when its lease lapses (its lead's next run then records it as unknown), so leads waiting
      -- for a slot cannot wait on it for good.
      if b.consecutive_errors + (select count(*) from sale_attempt s join lead_sale l on l.lead_id = s.lead_id
            where s.buyer_id = p_buyer and s.outcome = 'sending' and not s.test
              and l.claimed_until > now()) >= p_max_errors then
        -- Busy: the run waits for a slot, holding the lead meanwhile.
        update lead_sale set claimed_until = now() + make_interval(secs => p_lease_seconds) where lead_id = p_lead;
        return '!busy';
      end if;
      full_key := buyer_reserve(p_buyer, p_keys, p_leads, p_amounts, p_price);
      if full_key is not null then return full_key; end if;
      insert into sale_attempt (id, buyer_id, lead_id, lead_kind, at, outcome, cap_keys, reserved_cents)
      values (p_attempt, p_buyer, p_lead, p_kind, p_at, 'sending', p_keys, p_price);
      update lead_sale set claimed_until = now() + make_interval(secs => p_lease_seconds) where lead_id = p_lead;
      return null;
    end $$`);
    this.addSql(SALE_UNSOLD('null, null, p_at, null, null, null, null, null, null'));
    this.addSql(SALE_FINISH(true));
    // Settling an unknown outcome: returns the attempt's lead, buyer and price, or nothing when it is not
    // (or no longer) unknown — two admins at once: one settles, the other finds nothing. The buyer is part of
    // the key: a lead settled as not taken may later wait on another buyer, which a stale settle must miss.
    this.addSql(`
    create function sale_settle(p_lead uuid, p_buyer uuid, p_taken boolean, p_by text, p_at timestamptz)
      returns table (lead_id uuid, buyer_id uuid, price_cents bigint) language plpgsql as $$
    declare a sale_attempt;
    begin
      update sale_attempt s set outcome = case when p_taken then 'accepted' else 'rejected' end,
        price_cents = case when p_taken then s.reserved_cents end, settled_by = p_by, settled_at = p_at
      where s.lead_id = p_lead and s.buyer_id = p_buyer and s.outcome = 'unknown' and not s.test
      returning * into a;
      if not found then return; end if;
      if p_taken then
        -- The reservation becomes the sale: the cap keeps the lead and its amount.
        update lead_sale l set status = 'sold', buyer_id = a.buyer_id, price_cents = a.reserved_cents,
          sold_at = a.at, claimed_until = null, updated_at = now()
        where l.lead_id = a.lead_id;
        update buyer set idle_since = now() where id = a.buyer_id;
      else
        update buyer_cap_usage u set leads = u.leads - 1, amount_cents = u.amount_cents - a.reserved_cents
        where u.buyer_id = a.buyer_id and u.period_key = any(a.cap_keys);
        -- On down the waterfall from where it stopped: the buyers already offered it are never again.
        update lead_sale l set status = 'pending', claimed_until = null, updated_at = now()
        where l.lead_id = a.lead_id and l.status = 'unknown';
        perform graphile_worker.add_job('buyer_sell', json_build_object('id', a.lead_id), max_attempts => 25);
      end if;
      return query select a.lead_id, a.buyer_id, a.reserved_cents;
    end $$`);
  }

  override down(): void {
    this.addSql('drop function sale_settle(uuid, uuid, boolean, text, timestamptz)');
    this.addSql('drop function sale_unsold(uuid, text, uuid[], text[], timestamptz)');
    this.addSql(
      'drop function sale_begin(uuid, text, uuid[], text[], uuid, uuid, timestamptz, text[], integer[], bigint[], bigint, integer, integer)',
    );
    this.addSql(SALE_BEGIN_BEFORE);
    this.addSql(SALE_UNSOLD('null, null, p_at, null, null, null, null, null'));
    this.addSql(SALE_FINISH(false));
    this.addSql('drop index lead_sale_unknown_idx');
    this.addSql('drop index sale_attempt_open_idx');
    this.addSql('alter table sale_attempt drop column settled_by, drop column settled_at');
    this.addSql(`update sale_attempt set outcome = 'error' where outcome = 'unknown'`);
    this.addSql(`update lead_sale set status = 'pending' where status = 'unknown'`);
    this.addSql('alter table sale_attempt drop constraint sale_attempt_outcome_check');
    this.addSql(
      `alter table sale_attempt add constraint sale_attempt_outcome_check check (outcome in (${OUTCOMES_BEFORE}))`,
    );
    this.addSql('alter table lead_sale drop constraint lead_sale_status_check');
    this.addSql(
      `alter table lead_sale add constraint lead_sale_status_check check (status in (${STATUSES_BEFORE}))`,
    );
  }
}
