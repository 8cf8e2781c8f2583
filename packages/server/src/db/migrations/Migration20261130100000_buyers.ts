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
        reserved numeric(12, 2) not null default 0
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
            coalesce(w.source, 'direct') as source, coalesce(w.campaign, '') as campaign
          from website_lead w where p_kind = 'website' and w.id = any(p_ids)
          union all
          select a.id, a.opted_out_at is null, 'api', '' from api_lead a where p_kind = 'api' and a.id = any(p_ids)
        ), s as (
          insert into lead_sale (lead_id, lead_kind, status, source, campaign)
          select id, p_kind, case when sellable then 'pending' else 'not_for_sale' end, source, campaign from l
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
