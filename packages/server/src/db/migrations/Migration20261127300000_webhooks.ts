import { Migration } from '@mikro-orm/migrations';

// Webhooks (issue 24, ADR 062): endpoints, one delivery row per (message, endpoint) — its id is the
// `webhook-id` every attempt carries — and one row per attempt. Deliveries are queued by
// webhook_enqueue(), called inside the statements that write the leads (the group-committed batch, the
// partner batch, beneficiary updates, opt-outs, deletions), so a lead is never acknowledged without
// its deliveries. Each delivery is run by a graphile-worker job (the `graphile_worker` schema is
// installed at start-up, before these migrations; the functions below are PL/pgSQL, resolved at call
// time). A delivery's attempts are never run twice at once: the job queue locks its job, and the
// delivery row carries a lease (attempt_started_at) that a second runner must wait out.
export class Migration20261127300000_webhooks extends Migration {
  override name = 'Migration20261127300000_webhooks';

  override up(): void {
    this.addSql(`
      create table webhook_endpoint (
        id uuid primary key,
        url text not null,
        description text,
        events text[] not null,
        filters jsonb not null default '{}'::jsonb,
        enabled boolean not null default true,
        secret text not null,
        previous_secret text,
        previous_secret_until timestamptz,
        failing_since timestamptz,
        disabled_reason text,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      )`);
    this.addSql(`
      create table webhook_delivery (
        id uuid primary key,
        endpoint_id uuid not null references webhook_endpoint (id) on delete cascade,
        event text not null,
        lead_kind text,
        lead_id uuid,
        data jsonb,
        state text not null default 'pending' check (state in ('pending', 'delivered', 'failed')),
        attempts integer not null default 0,
        next_attempt_at timestamptz,
        attempt_started_at timestamptz,
        last_status integer,
        last_error text,
        delivered_at timestamptz,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      )`);
    this.addSql('create index webhook_delivery_endpoint on webhook_delivery (endpoint_id, created_at desc)');
    this.addSql('create index webhook_delivery_lead on webhook_delivery (lead_id) where lead_id is not null');
    this.addSql(
      `create index webhook_delivery_pending on webhook_delivery (next_attempt_at) where state = 'pending'`,
    );
    this.addSql(`
      create table webhook_attempt (
        id bigint generated always as identity primary key,
        delivery_id uuid not null references webhook_delivery (id) on delete cascade,
        started_at timestamptz not null,
        duration_ms integer not null,
        status_code integer,
        response_excerpt text,
        error text,
        outcome text not null check (outcome in ('delivered', 'retrying', 'failed'))
      )`);
    this.addSql('create index webhook_attempt_delivery on webhook_attempt (delivery_id, started_at)');

    // Queues a job per delivery (run at its next_attempt_at). Retries and resends are keyed by the
    // delivery, so a delivery has at most one waiting job of those; a new delivery's first job is not
    // (there is nothing to replace, and a keyed add is an upsert that cost the lead batch a third of its
    // speed — ADR 062).
    this.addSql(`
      create function webhook_queue(p_ids uuid[], p_keyed boolean default true) returns integer
      language plpgsql as $$
      declare n integer;
      begin
        if p_ids is null or cardinality(p_ids) = 0 then return 0; end if;
        select count(*) into n from graphile_worker.add_jobs(array(
          select row('webhook_deliver', json_build_object('id', d.id), null, d.next_attempt_at, 25,
                     case when p_keyed then d.id::text end, 0, null)::graphile_worker.job_spec
          from webhook_delivery d where d.id = any(p_ids) and d.state = 'pending'));
        return n;
      end $$`);

    // One delivery per (lead, endpoint) for the event: endpoints enabled, subscribed to the event and whose
    // filters match; for opt-outs and deletions also every enabled endpoint that was sent the lead,
    // whatever its event list (revocation must travel). One call per batch, whatever its size.
    this.addSql(`
      create function webhook_enqueue(p_event text, p_kind text, p_ids uuid[], p_states text[], p_sources text[])
      returns integer language plpgsql as $$
      declare ids uuid[];
      begin
        if p_ids is null or cardinality(p_ids) = 0 then return 0; end if;
        if not exists (select 1 from webhook_endpoint where enabled) then return 0; end if;
        with l as (
          select * from unnest(p_ids, p_states, p_sources) as t(id, state, source)
        ), d as (
          insert into webhook_delivery (id, endpoint_id, event, lead_kind, lead_id, data, next_attempt_at)
          select gen_random_uuid(), e.id, p_event, p_kind, l.id,
            case when p_event in ('lead.opted_out', 'lead.deleted')
              then jsonb_build_object('id', l.id, 'leadType', p_kind) end,
            now()
          from l join webhook_endpoint e on e.enabled and (
            (p_event = any(e.events)
              and (e.filters->'states' is null or (l.state is not null and e.filters->'states' ? l.state))
              and (e.filters->'leadTypes' is null or e.filters->'leadTypes' ? p_kind)
              and (e.filters->'utmSources' is null or (l.source is not null and e.filters->'utmSources' ? l.source)))
            or (p_event in ('lead.opted_out', 'lead.deleted') and exists (
              select 1 from webhook_delivery x
              where x.lead_id = l.id and x.endpoint_id = e.id and x.event in ('lead.created', 'api_lead.created'))))
          returning id
        )
        select array_agg(id) into ids from d;
        return webhook_queue(ids, false);
      end $$`);
  }

  override down(): void {
    this.addSql('drop function if exists webhook_enqueue(text, text, uuid[], text[], text[])');
    this.addSql('drop function if exists webhook_queue(uuid[], boolean)');
    this.addSql('drop table if exists webhook_attempt');
    this.addSql('drop table if exists webhook_delivery');
    this.addSql('drop table if exists webhook_endpoint');
  }
}
