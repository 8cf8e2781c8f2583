import { Migration } from '@mikro-orm/migrations';

// Lead quality's look-ups once per batch (issue 33, ADR 065). lead_quality_look() was called once per
// lead of a batch: a PL/pgSQL call with up to seven queries of its own for every lead, the bulk of the
// batch statement's time (submit-search fell from 0.78 to 0.25 of the one-INSERT baseline).
// lead_quality_look_batch() takes the whole batch: every lead's advisory-lock keys at once (sorted and
// without repeats, so two batches that share a key still take their turns, and never wait for each other
// in a circle), then one query answers every lead's look-ups, with the same indexes and the same limits
// (ten duplicate ids, the address's leads counted up to its limit + 1, one lead that used the token).
// It runs after the locks, so it sees what another batch committed while this one waited for them.
//
// A lead still sees none of its own batch's leads: leads that share a look-up key never go in one batch
// (the group committer's `keysOf`), and the batch's statement counts its own leads from one address
// itself. A lead with no key to lock (a partner lead whose phone is on the allow list) is looked up like
// any other; lead_quality_look() failed on it ("FOREACH expression must not be null"). lead_quality_look()
// stays, unused, for a replica that still runs the code before this one (a later migration may drop it).

export class Migration20261201100000_lead_quality_batch_look extends Migration {
  override name = 'Migration20261201100000_lead_quality_batch_look';

  override up(): void {
    // One row per lead: `ords` names the leads (returned as `ord`), the other arrays hold their keys in
    // the same order (null: no such look-up); `lock_keys` holds every lead's lock keys, in any order.
    this.addSql(`
      create function lead_quality_look_batch(
        ords bigint[], lock_keys bigint[], phones text[], email_keys text[], ips text[], nonces text[],
        window_days int, cap_10m int, cap_24h int)
      returns table (ord bigint, dup_phone uuid[], dup_email uuid[], ip_10m int, ip_24h int, token_lead uuid)
      language plpgsql volatile
      -- One plan for every batch size: left to choose, PostgreSQL plans a small batch's query again on every
      -- call (0.7 ms for one lead against 0.1 ms with the kept plan).
      set plan_cache_mode = force_generic_plan
      as $$
      declare
        k bigint;
      begin
        foreach k in array coalesce(
          (select array_agg(distinct x order by x) from unnest(lock_keys) x where x is not null), '{}')
        loop
          perform pg_advisory_xact_lock(k);
        end loop;
        -- A fresh snapshot, taken after every lock.
        return query
        select l.ord,
          case when l.phone is not null then (
            select array_agg(d.id) from (
              select w.id from website_lead w
               where w.phone_e164 = l.phone and w.created_at > now() - make_interval(days => window_days)
              union all
              select a.id from api_lead a
               where a.phone_e164 = l.phone and a.created_at > now() - make_interval(days => window_days)
              limit 10) d)
          end,
          case when l.email_key is not null then (
            select array_agg(d.id) from (
              select w.id from website_lead w
               where w.email_key = l.email_key and w.created_at > now() - make_interval(days => window_days)
               limit 10) d)
          end,
          -- Counted up to the limits only, as lead_quality_look() counts them.
          case when l.ip is not null then (
            select count(*)::int from (
              select 1 from website_lead w
               where w.ip_address = l.ip and w.created_at > now() - interval '10 minutes'
               limit cap_10m + 1) x)
          end,
          case when l.ip is not null then (
            select count(*)::int from (
              select 1 from website_lead w
               where w.ip_address = l.ip and w.created_at > now() - interval '24 hours'
               limit cap_24h + 1) x)
          end,
          case when l.nonce is not null then (
            select w.id from website_lead w where w.form_token_nonce = l.nonce limit 1)
          end
        from unnest(ords, phones, email_keys, ips, nonces) as l(ord, phone, email_key, ip, nonce);
      end
      $$`);
  }

  override down(): void {
    this.addSql(
      'drop function if exists lead_quality_look_batch(bigint[], bigint[], text[], text[], text[], text[], int, int, int)',
    );
  }
}
