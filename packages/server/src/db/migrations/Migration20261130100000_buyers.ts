import { Migration } from '@mikro-orm/migrations';

// Lead buyers (issue 34, ADR 069). A buyer is a posting spec (its config, as the admin API takes it) with
// its status and error streak; buyer_cap_usage counts each cap's current period (reserved before a post,
// released unless the buyer accepted); lead_sale is a lead's place in the waterfall (pending, sold,
// unsold, not_for_sale) with its price and return; sale_attempt keeps every post and skip — one per
// (lead, buyer), which is what makes "never offered twice to one buyer" hold across crashes.
//
// Leads reach the buyers through the webhook outbox (ADR 062): webhook_enqueue() now also writes its
// outbox row for a lead.created / api_lead.created batch while any buyer is active, and the fan-out turns
// such a row into lead_sale rows and one `buyer_sell` job per lead — in the transaction that deletes the
// row, so a lead is never acknowledged without its sale being queued, and a crash loses none.

/** The fan-out's advisory lock (Migration20261128100000_webhook_outbox). */
const FANOUT_LOCK = 620_621;

export class Migration20261130100000_buyers extends Migration {
  override name = 'Migration20261130100000_buyers';

  override up(): void {
    this.addSql(`
      create table buyer (
        id uuid primary key,
        name text not null,
        status text not null default 'active' check (status in ('active', 'paused')),
        priority integer not null default 100,
        price numeric(12, 2) not null check (price >= 0),
        config jsonb not null,
        paused_reason text null,
        consecutive_errors integer not null default 0,
        -- Since when it has accepted nothing (its last acceptance, its creation or its resumption).
        idle_since timestamptz not null default now(),
        idle_reported_at timestamptz null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      )`);
    this.addSql(`create index buyer_active_idx on buyer (priority, created_at) where status = 'active'`);

    this.addSql(`
      create table buyer_cap_usage (
        buyer_id uuid not null references buyer (id) on delete cascade,
        period_key text not null,
        leads integer not null default 0,
        amount numeric(14, 2) not null default 0,
        primary key (buyer_id, period_key)
      )`);

    this.addSql(`
      create table lead_sale (
        lead_id uuid primary key,
        lead_kind text not null check (lead_kind in ('website', 'api')),
        status text not null check (status in ('pending', 'sold', 'unsold', 'not_for_sale')),
        buyer_id uuid null references buyer (id) on delete set null,
        price numeric(12, 2) null,
        sold_at timestamptz null,
        -- Where the lead came from, keyed as the lead source rollups are (the sources table's revenue).
        country text null,
        channel text null,
        source text null,
        campaign text null,
        returned_at timestamptz null,
        return_reason text null,
        return_note text null,
        returned_by text null,
        claimed_until timestamptz null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      )`);
    this.addSql('create index lead_sale_created_idx on lead_sale (created_at)');
    this.addSql(`create index lead_sale_sold_idx on lead_sale (created_at) where status = 'sold'`);
    this.addSql(`create index lead_sale_pending_idx on lead_sale (created_at) where status = 'pending'`);
    this.addSql(
      'create index lead_sale_buyer_idx on lead_sale (buyer_id, sold_at) where buyer_id is not null',
    );

    this.addSql(`
      create table sale_attempt (
        id uuid primary key,
        buyer_id uuid not null references buyer (id) on delete cascade,
        lead_id uuid null,
        lead_kind text null,
        test boolean not null default false,
        at timestamptz not null default now(),
        outcome text not null check (outcome in
          ('sending', 'accepted', 'rejected', 'duplicate', 'error', 'timeout', 'skipped')),
        reason text null,
        price numeric(12, 2) null,
        reference text null,
        latency_ms integer null,
        request jsonb null,
        status integer null,
        response text null,
        cap_keys text[] not null default '{}',
        reserved numeric(12, 2) not null default 0,
        -- The order attempts were written in (a lead's waterfall is sequential; at is the app's clock).
        seq bigint generated always as identity
      )`);
    // A lead meets each buyer once (live): a crash between the post and its record cannot lead to a second.
    this.addSql(
      'create unique index sale_attempt_lead_buyer_idx on sale_attempt (lead_id, buyer_id) where not test',
    );
    this.addSql('create index sale_attempt_buyer_idx on sale_attempt (buyer_id, at desc)');
    this.addSql(`create index sale_attempt_sending_idx on sale_attempt (at) where outcome = 'sending'`);

    // An erased lead leaves no personal data in the sale log: its requests and answers are dropped with
    // it (the sale's figures stay, for revenue).
    for (const table of ['website_lead', 'api_lead']) {
      this.addSql(`
        create function ${table}_sale_scrub() returns trigger language plpgsql as $$
        begin
          update sale_attempt s set request = null, response = null
          from gone g where s.lead_id = g.id and (s.request is not null or s.response is not null);
          return null;
        end $$`);
      this.addSql(`
        create trigger ${table}_sale_scrub after delete on ${table}
        referencing old table as gone for each statement execute function ${table}_sale_scrub()`);
    }

    // A batch's sales: one lead_sale row per lead (not_for_sale without consent, with Global Privacy
    // Control's do-not-sell, or opted out) and a job per lead to sell. Called by the fan-out.
    this.addSql(`
      create function sale_enqueue(p_kind text, p_ids uuid[]) returns integer language plpgsql as $$
      declare n integer;
      begin
        if p_ids is null or cardinality(p_ids) = 0 then return 0; end if;
        if not exists (select 1 from buyer where status = 'active') then return 0; end if;
        with l as (
          select w.id, w.consent_given and not w.do_not_sell and w.opted_out_at is null as sellable,
            coalesce(w.country, '') as country, coalesce(w.channel, 'Direct') as channel,
            coalesce(w.source, 'direct') as source, coalesce(w.campaign, '') as campaign
          from website_lead w where p_kind = 'website' and w.id = any(p_ids)
          union all
          select a.id, a.opted_out_at is null, '', 'API', 'api', '' from api_lead a where p_kind = 'api' and a.id = any(p_ids)
        ), s as (
          insert into lead_sale (lead_id, lead_kind, status, country, channel, source, campaign)
          select id, p_kind, case when sellable then 'pending' else 'not_for_sale' end, country, channel, source, campaign
          from l
          on conflict (lead_id) do nothing
          returning lead_id, status
        )
        select count(*) into n from graphile_worker.add_jobs(array(
          select row('buyer_sell', json_build_object('id', s.lead_id), null, null, 25, null, 0, null)::graphile_worker.job_spec
          from s where s.status = 'pending'));
        return n;
      end $$`);

    // webhook_enqueue(): as before, and also while a buyer is active for the events that offer a lead.
    this.addSql(`
      create or replace function webhook_enqueue(p_event text, p_kind text, p_ids uuid[], p_states text[],
        p_sources text[], p_wake boolean default true)
      returns integer language plpgsql as $$
      begin
        if p_ids is null or cardinality(p_ids) = 0 then return 0; end if;
        if not exists (select 1 from webhook_endpoint where enabled)
          and not (p_event in ('lead.created', 'api_lead.created')
                   and exists (select 1 from buyer where status = 'active')) then
          return 0;
        end if;
        insert into webhook_event (event, lead_kind, ids, states, sources)
        values (p_event, p_kind, p_ids, p_states, p_sources);
        if p_wake then perform graphile_worker.add_job('webhook_fanout', '{}'::json); end if;
        return cardinality(p_ids);
      end $$`);

    // The fan-out: as before, plus the sales of the rows that offer leads.
    this.addSql(`
      create or replace function webhook_fanout(p_limit integer) returns integer language plpgsql as $$
      declare evs webhook_event[]; ev webhook_event; ids uuid[] := '{}';
      begin
        if not pg_try_advisory_xact_lock(${FANOUT_LOCK}) then return -1; end if;
        with taken as (
          delete from webhook_event where id in (select id from webhook_event order by id limit p_limit)
          returning *
        ) select array_agg(taken order by id) into evs from taken;
        if evs is null then return 0; end if;
        foreach ev in array evs loop
          ids := ids || webhook_deliveries_of(ev.event, ev.lead_kind, ev.ids, ev.states, ev.sources, ev.created_at);
          if ev.event in ('lead.created', 'api_lead.created') then
            perform sale_enqueue(ev.lead_kind, ev.ids);
          end if;
        end loop;
        perform webhook_queue(ids, false);
        return cardinality(evs);
      end $$`);

    // Reserves one lead (and p_amount) on each of the buyer's caps for their current periods, all or none:
    // the counters are created, then locked in the caller's order (sorted: no two reservations wait on
    // each other), checked, and bumped. Returns null when reserved, else the key of the first full cap.
    this.addSql(`
      create function buyer_reserve(p_buyer uuid, p_keys text[], p_leads integer[], p_amounts numeric[],
        p_amount numeric) returns text language plpgsql as $$
      declare i integer; u buyer_cap_usage;
      begin
        if cardinality(p_keys) = 0 then return null; end if;
        insert into buyer_cap_usage (buyer_id, period_key)
        select p_buyer, k from unnest(p_keys) k on conflict do nothing;
        for i in 1 .. cardinality(p_keys) loop
          select * into u from buyer_cap_usage where buyer_id = p_buyer and period_key = p_keys[i] for update;
          if (p_leads[i] is not null and u.leads + 1 > p_leads[i])
            or (p_amounts[i] is not null and u.amount + p_amount > p_amounts[i]) then
            return p_keys[i];
          end if;
        end loop;
        update buyer_cap_usage set leads = leads + 1, amount = amount + p_amount
        where buyer_id = p_buyer and period_key = any(p_keys);
        return null;
      end $$`);

    // One step of a lead's waterfall before a post, in one round trip: the skips recorded since the last
    // step, then the caps reserved (buyer_reserve) with the `sending` attempt and the lead's lease renewed
    // — all or none. Returns the full cap's key (then the buyer is recorded as skipped by the caller's
    // next step), or null when the post may go.
    this.addSql(`
      create function sale_begin(p_lead uuid, p_kind text, p_skip_buyers uuid[], p_skip_reasons text[],
        p_attempt uuid, p_buyer uuid, p_at timestamptz, p_keys text[], p_leads integer[], p_amounts numeric[],
        p_price numeric, p_lease_seconds integer) returns text language plpgsql as $$
      declare full_key text;
      begin
        insert into sale_attempt (id, buyer_id, lead_id, lead_kind, at, outcome, reason)
        select gen_random_uuid(), b, p_lead, p_kind, p_at, 'skipped', r
        from unnest(p_skip_buyers, p_skip_reasons) with ordinality as s(b, r, n) order by n
        on conflict do nothing;
        if p_buyer is null then return null; end if;
        full_key := buyer_reserve(p_buyer, p_keys, p_leads, p_amounts, p_price);
        if full_key is not null then return full_key; end if;
        insert into sale_attempt (id, buyer_id, lead_id, lead_kind, at, outcome, cap_keys, reserved)
        values (p_attempt, p_buyer, p_lead, p_kind, p_at, 'sending', p_keys, p_price);
        update lead_sale set claimed_until = now() + make_interval(secs => p_lease_seconds) where lead_id = p_lead;
        return null;
      end $$`);

    // The answer of one post, in one round trip: the attempt recorded; the caps released unless it was
    // accepted (an accepted sale's amount counts its real price); the sale marked sold; the buyer's error
    // streak (errors and timeouts in a row pause it at p_max_errors). Returns true when this outcome
    // paused the buyer.
    this.addSql(`
      create function sale_finish(p_attempt uuid, p_lead uuid, p_buyer uuid, p_outcome text, p_reason text,
        p_price numeric, p_reference text, p_latency integer, p_request jsonb, p_status integer,
        p_response text, p_keys text[], p_reserved numeric, p_sold_at timestamptz, p_max_errors integer,
        p_paused_reason text) returns boolean language plpgsql as $$
      declare sold boolean := p_outcome = 'accepted';
      declare failed boolean := p_outcome in ('error', 'timeout');
      declare paused boolean := false;
      begin
        update sale_attempt set outcome = p_outcome, reason = p_reason, price = p_price, reference = p_reference,
          latency_ms = p_latency, request = p_request, status = p_status, response = p_response
        where id = p_attempt;
        if cardinality(p_keys) > 0 then
          update buyer_cap_usage set leads = leads - case when sold then 0 else 1 end,
            amount = amount - p_reserved + case when sold then coalesce(p_price, 0) else 0 end
          where buyer_id = p_buyer and period_key = any(p_keys);
        end if;
        if sold then
          update lead_sale set status = 'sold', buyer_id = p_buyer, price = p_price, sold_at = p_sold_at,
            claimed_until = null, updated_at = now()
          where lead_id = p_lead;
        end if;
        -- Only when something changes: a refusal with no error streak writes nothing to the buyer's row.
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
      end $$`);

    // The end of a waterfall that sold nothing: the last skips, and the sale unsold.
    this.addSql(`
      create function sale_unsold(p_lead uuid, p_kind text, p_skip_buyers uuid[], p_skip_reasons text[],
        p_at timestamptz) returns void language plpgsql as $$
      begin
        perform sale_begin(p_lead, p_kind, p_skip_buyers, p_skip_reasons, null, null, p_at, null, null, null, null, null);
        update lead_sale set status = 'unsold', claimed_until = null, updated_at = now()
        where lead_id = p_lead and status = 'pending';
      end $$`);
  }

  override down(): void {
    this.addSql(`
      create or replace function webhook_fanout(p_limit integer) returns integer language plpgsql as $$
      declare evs webhook_event[]; ev webhook_event; ids uuid[] := '{}';
      begin
        if not pg_try_advisory_xact_lock(${FANOUT_LOCK}) then return -1; end if;
        with taken as (
          delete from webhook_event where id in (select id from webhook_event order by id limit p_limit)
          returning *
        ) select array_agg(taken order by id) into evs from taken;
        if evs is null then return 0; end if;
        foreach ev in array evs loop
          ids := ids || webhook_deliveries_of(ev.event, ev.lead_kind, ev.ids, ev.states, ev.sources, ev.created_at);
        end loop;
        perform webhook_queue(ids, false);
        return cardinality(evs);
      end $$`);
    this.addSql(`
      create or replace function webhook_enqueue(p_event text, p_kind text, p_ids uuid[], p_states text[],
        p_sources text[], p_wake boolean default true)
      returns integer language plpgsql as $$
      begin
        if p_ids is null or cardinality(p_ids) = 0 then return 0; end if;
        if not exists (select 1 from webhook_endpoint where enabled) then return 0; end if;
        insert into webhook_event (event, lead_kind, ids, states, sources)
        values (p_event, p_kind, p_ids, p_states, p_sources);
        if p_wake then perform graphile_worker.add_job('webhook_fanout', '{}'::json); end if;
        return cardinality(p_ids);
      end $$`);
    this.addSql('drop function if exists sale_unsold(uuid, text, uuid[], text[], timestamptz)');
    this.addSql(
      'drop function if exists sale_finish(uuid, uuid, uuid, text, text, numeric, text, integer, jsonb, integer, text, text[], numeric, timestamptz, integer, text)',
    );
    this.addSql(
      'drop function if exists sale_begin(uuid, text, uuid[], text[], uuid, uuid, timestamptz, text[], integer[], numeric[], numeric, integer)',
    );
    this.addSql('drop function if exists buyer_reserve(uuid, text[], integer[], numeric[], numeric)');
    this.addSql('drop function if exists sale_enqueue(text, uuid[])');
    for (const table of ['website_lead', 'api_lead']) {
      this.addSql(`drop trigger if exists ${table}_sale_scrub on ${table}`);
      this.addSql(`drop function if exists ${table}_sale_scrub()`);
    }
    this.addSql('drop table if exists sale_attempt');
    this.addSql('drop table if exists lead_sale');
    this.addSql('drop table if exists buyer_cap_usage');
    this.addSql('drop table if exists buyer');
  }
}
