import { Migration } from '@mikro-orm/migrations';

// A website lead's suppression look-up joins the batch's other look-ups (issues 33 and 34, ADR 051).
// The submit statement called suppressed_since_locked() once per lead: a PL/pgSQL call with its own
// advisory lock and its own query (executor set up and torn down each time), ~17 µs of PostgreSQL per
// lead at batches of ~15 — one of the larger parts of a submission's database time after the rows and
// their indexes.
//
// website_lead_look_batch() takes every lock of the batch at once — the look-ups' keys and each lead's
// e-mail lock, which an opt-out of the same address takes too — sorted and without repeats, so two
// batches never wait for each other in a circle (every other holder of these locks takes one at a time).
// Then, in one statement with a snapshot taken after the locks, it answers lead_quality_look_batch()'s
// look-ups (called with no keys of its own to lock) and when each lead's e-mail or phone was suppressed:
// an opt-out that committed while the batch waited for its lock is seen, as before.
//
// suppressed_since_locked() and lead_quality_look_batch() stay: the partner path and a replica still
// running the code before this one call them.

export class Migration20261206100000_website_lead_look_batch extends Migration {
  override name = 'Migration20261206100000_website_lead_look_batch';

  override up(): void {
    this.addSql(`
      create function website_lead_look_batch(
        ords bigint[], lock_keys bigint[], phones text[], email_keys text[], ips text[], nonces text[],
        email_hashes text[], phone_hashes text[], window_days int, cap_10m int, cap_24h int)
      returns table (ord bigint, dup_phone uuid[], dup_email uuid[], ip_10m int, ip_24h int, token_lead uuid,
        suppressed_since timestamptz)
      language plpgsql volatile
      set plan_cache_mode = force_generic_plan
      as $$
      begin
        -- Every key once, in ascending order (the rows reach the call in the sort's order).
        perform pg_advisory_xact_lock(k)
        from (select distinct x as k from unnest(lock_keys) x where x is not null order by x) keys;
        -- A new statement: its snapshot is taken after every lock.
        return query
        select l.ord, l.dup_phone, l.dup_email, l.ip_10m, l.ip_24h, l.token_lead,
          (select min(s.created_at) from suppression s
            where (s.kind = 'email' and s.value_hash = h.email_hash)
               or (s.kind = 'phone' and s.value_hash = h.phone_hash))
        from lead_quality_look_batch(ords, '{}', phones, email_keys, ips, nonces, window_days, cap_10m, cap_24h) l
        join unnest(ords, email_hashes, phone_hashes) as h(ord, email_hash, phone_hash) on h.ord = l.ord;
      end
      $$`);
  }

  override down(): void {
    this.addSql(
      'drop function if exists website_lead_look_batch(bigint[], bigint[], text[], text[], text[], text[], text[], text[], int, int, int)',
    );
  }
}
