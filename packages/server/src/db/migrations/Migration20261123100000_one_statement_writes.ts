import { Migration } from '@mikro-orm/migrations';

// The public write paths in one statement and one round trip each (ADR 051).
//
// A statement's own subqueries read the snapshot taken when the statement began. The rules below must
// see what committed while the statement waited for its advisory lock, so each takes its locks and
// then reads inside a VOLATILE function, whose queries each take a fresh snapshot (READ COMMITTED).
// The locks are transaction-scoped: held until the calling statement commits.
export class Migration20261123100000_one_statement_writes extends Migration {
  override name = 'Migration20261123100000_one_statement_writes';

  override up(): void {
    // Lead submission: when were this e-mail or phone suppressed, after taking the e-mail's lock, which
    // an opt-out of the same address also takes.
    this.addSql(`
      create function suppressed_since_locked(lock_key bigint, email_hash text, phone_hash text)
      returns timestamptz language plpgsql volatile as $$
      declare
        since timestamptz;
      begin
        perform pg_advisory_xact_lock(lock_key);
        select min(created_at) into since from suppression
         where (kind = 'email' and value_hash = email_hash) or (kind = 'phone' and value_hash = phone_hash);
        return since;
      end
      $$`);

    // Partner lead: under the (partner, key) and (partner, phone, last name) locks, the stored answer of
    // the Idempotency-Key (expired ones removed first), the partner's recent duplicate, and when the
    // phone was suppressed.
    this.addSql(`
      create function partner_lead_look(
        lock_keys bigint[], p_partner uuid, p_key text, ttl_hours int, p_digits text, p_last_name text,
        dup_hours int, p_phone_hash text,
        out stored_hash text, out stored_id text, out duplicate_id uuid, out suppressed_since timestamptz)
      language plpgsql volatile as $$
      declare
        k bigint;
      begin
        foreach k in array lock_keys loop
          perform pg_advisory_xact_lock(k);
        end loop;
        delete from partner_idempotency
         where partner_id = p_partner and idempotency_key = p_key and created_at < now() - make_interval(hours => ttl_hours);
        select i.request_hash, i.response_body ->> 'id' into stored_hash, stored_id from partner_idempotency i
         where i.partner_id = p_partner and i.idempotency_key = p_key;
        select a.id into duplicate_id from api_lead a
         where a.partner_id = p_partner and phone_digits(a.phone) = p_digits and lower(a.last_name) = p_last_name
           and a.created_at > now() - make_interval(hours => dup_hours)
         order by a.created_at desc limit 1;
        select min(s.created_at) into suppressed_since from suppression s
         where s.kind = 'phone' and s.value_hash = p_phone_hash;
      end
      $$`);

    // Rate-limit counters: every hit of one key updates the same row, and the row lock is held until
    // commit. With synchronous_commit on, that commit waits for the WAL to reach the disk, so a busy key
    // (a partner's API key) was admitted one request per disk flush. A counter is not evidence: this
    // transaction commits without waiting (a crash may forget the last moment's hits, never a lead).
    // Called as its own statement only, never inside another transaction.
    this.addSql(`
      create function hit_rate_limit(bucket_key text, window_secs int, out hits int, out retry_after int)
      language plpgsql volatile as $$
      begin
        perform set_config('synchronous_commit', 'off', true);
        insert into rate_limit_bucket as b (key, window_start, count) values (bucket_key, now(), 1)
        on conflict (key) do update set
          count = case when b.window_start <= now() - make_interval(secs => window_secs) then 1 else b.count + 1 end,
          window_start = case when b.window_start <= now() - make_interval(secs => window_secs)
                         then now() else b.window_start end
        returning b.count,
          greatest(1, ceil(extract(epoch from (b.window_start + make_interval(secs => window_secs) - now()))))::int
        into hits, retry_after;
      end
      $$`);
  }

  override down(): void {
    this.addSql('drop function hit_rate_limit(text, int)');
    this.addSql('drop function partner_lead_look(bigint[], uuid, text, int, text, text, int, text)');
    this.addSql('drop function suppressed_since_locked(bigint, text, text)');
  }
}
