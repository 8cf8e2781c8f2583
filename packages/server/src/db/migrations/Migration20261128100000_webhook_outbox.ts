import { Migration } from '@mikro-orm/migrations';

// Webhooks queued per batch, fanned out by the job queue (issue 24, ADR 062 "The write path's share").
// Until now webhook_enqueue() wrote, inside the statement that stores a batch of leads, one delivery row
// and one graphile-worker job per (lead, endpoint): with two endpoints that halved the lead route's speed.
// Now the statement writes one row per batch to an outbox (`webhook_event`: the event and the batch's
// lead ids, states and UTM sources) — a lead is still never acknowledged without its messages, and a
// kill -9 loses none. A `webhook_fanout` job's webhook_fanout() turns the outbox's rows into deliveries
// and their jobs, one fan-out at a time and in event order: an opt-out or deletion is fanned out after
// the lead.created it revokes, so it finds that lead's deliveries ("revocation must travel"). The
// matching rules are the ones webhook_enqueue() had.
/** The advisory lock key of the fan-out (any constant no other code uses). */
const FANOUT_LOCK = 620_621;

export class Migration20261128100000_webhook_outbox extends Migration {
  override name = 'Migration20261128100000_webhook_outbox';

  override up(): void {
    this.addSql(`
      create table webhook_event (
        id bigint generated always as identity primary key,
        event text not null,
        lead_kind text not null,
        ids uuid[] not null,
        states text[] not null,
        sources text[] not null,
        created_at timestamptz not null default now()
      )`);

    // The deliveries of one outbox row (the former body of webhook_enqueue()); returns their ids.
    this.addSql(`
      create function webhook_deliveries_of(p_event text, p_kind text, p_ids uuid[], p_states text[],
        p_sources text[], p_at timestamptz)
      returns uuid[] language plpgsql as $$
      declare ids uuid[];
      begin
        with l as (
          select * from unnest(p_ids, p_states, p_sources) as t(id, state, source)
        ), d as (
          insert into webhook_delivery (id, endpoint_id, event, lead_kind, lead_id, data, next_attempt_at, created_at)
          select gen_random_uuid(), e.id, p_event, p_kind, l.id,
            case when p_event in ('lead.opted_out', 'lead.deleted')
              then jsonb_build_object('id', l.id, 'leadType', p_kind) end,
            now(), p_at
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
        return coalesce(ids, '{}');
      end $$`);

    // Called inside the statements that write leads: one outbox row per call, whatever the batch's size;
    // nothing at all while no endpoint is enabled. With p_wake it also queues the fan-out's job; the two
    // group-committed lead writers pass false and queue it once their batch has committed (a job added
    // inside the batch's statement cost the lead route a fifth of its speed — ADR 062), coalesced across
    // batches. A crash between that commit and the job leaves the row to the sweep: never lost.
    this.addSql('drop function webhook_enqueue(text, text, uuid[], text[], text[])');
    this.addSql(`
      create function webhook_enqueue(p_event text, p_kind text, p_ids uuid[], p_states text[], p_sources text[],
        p_wake boolean default true)
      returns integer language plpgsql as $$
      begin
        if p_ids is null or cardinality(p_ids) = 0 then return 0; end if;
        if not exists (select 1 from webhook_endpoint where enabled) then return 0; end if;
        insert into webhook_event (event, lead_kind, ids, states, sources)
        values (p_event, p_kind, p_ids, p_states, p_sources);
        if p_wake then perform graphile_worker.add_job('webhook_fanout', '{}'::json); end if;
        return cardinality(p_ids);
      end $$`);

    // Fans out up to p_limit outbox rows, oldest first, in the caller's transaction: their deliveries and
    // jobs are written and the rows deleted together. One fan-out at a time (a transaction-level advisory
    // lock): -1 when another is running — it looks at the outbox again once it has committed, so what
    // this caller was woken for is not left behind.
    this.addSql(`
      create function webhook_fanout(p_limit integer) returns integer language plpgsql as $$
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
  }

  override down(): void {
    this.addSql('drop function if exists webhook_fanout(integer)');
    this.addSql('drop function if exists webhook_enqueue(text, text, uuid[], text[], text[], boolean)');
    this.addSql(`
      create function webhook_enqueue(p_event text, p_kind text, p_ids uuid[], p_states text[], p_sources text[])
      returns integer language plpgsql as $$
      begin
        if p_ids is null or cardinality(p_ids) = 0 then return 0; end if;
        if not exists (select 1 from webhook_endpoint where enabled) then return 0; end if;
        -- As before this migration: the deliveries and their jobs in the lead's own statement.
        return webhook_queue(webhook_deliveries_of(p_event, p_kind, p_ids, p_states, p_sources, now()), false);
      end $$`);
    this.addSql('drop table if exists webhook_event');
  }
}
