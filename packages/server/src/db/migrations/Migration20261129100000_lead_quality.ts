import { Migration } from '@mikro-orm/migrations';

// Lead quality (issue 33, ADR 065). Every lead carries a verdict (accept, hold, reject), its reason codes,
// the signals behind them, the rules version and who decided. The field checks run in the app before a
// lead joins its batch; what needs the other leads (the same phone or mailbox lately, the client
// address's pace, a form token already used) is looked up by lead_quality_look() inside the batch's own
// statement, after taking advisory locks on the lead's keys, so two leads with one phone cannot both pass
// unseen (race-safe across replicas). quality_verdict() turns reason codes into the verdict with the
// actions in force. Leads stored before this migration were already sent on: they are accepted.

export class Migration20261129100000_lead_quality extends Migration {
  override name = 'Migration20261129100000_lead_quality';

  override up(): void {
    for (const table of ['website_lead', 'api_lead']) {
      this.addSql(`
        alter table ${table}
          add column quality_verdict text not null default 'accept'
            check (quality_verdict in ('accept', 'hold', 'reject')),
          add column quality_reasons text[] not null default '{}',
          add column quality_signals jsonb,
          add column quality_decided_by text not null default 'rules',
          add column quality_decided_at timestamptz,
          add column quality_rules_version integer not null default 0,
          add column phone_e164 text`);
      this.addSql(
        `create index ${table}_phone_e164_idx on ${table} (phone_e164, created_at) where phone_e164 is not null`,
      );
      // The review queue and the verdict filter: held leads, newest first.
      this.addSql(`create index ${table}_quality_verdict_idx on ${table} (quality_verdict, created_at desc)
        where quality_verdict <> 'accept'`);
    }
    this.addSql(`
      alter table website_lead
        add column email_key text,
        add column form_token_nonce text`);
    this.addSql(
      'create index website_lead_email_key_idx on website_lead (email_key, created_at) where email_key is not null',
    );
    this.addSql(
      'create index website_lead_ip_address_idx on website_lead (ip_address, created_at) where ip_address is not null',
    );
    this.addSql(
      'create index website_lead_form_token_nonce_idx on website_lead (form_token_nonce) where form_token_nonce is not null',
    );

    // The settings (one row): actions per reason code, windows, thresholds and allow lists, with the
    // version every change bumps (stored with each lead as its rules version).
    this.addSql(`
      create table quality_settings (
        id smallint primary key default 1 check (id = 1),
        settings jsonb not null,
        version integer not null,
        updated_by text not null,
        updated_at timestamptz not null default now()
      )`);

    // Reason codes → verdict with the actions in force: the most severe action among the codes wins. The
    // honeypot alone holds, but beside any other bot signal it rejects.
    this.addSql(`
      create function quality_verdict(codes text[], actions jsonb) returns text
      language sql immutable as $$
        select case
          when cardinality(codes) = 0 then 'accept'
          when 'BOT_HONEYPOT' = any(codes)
            and exists (select 1 from unnest(codes) c where c like 'BOT\\_%' and c <> 'BOT_HONEYPOT') then 'reject'
          else coalesce((
            select (array['accept', 'hold', 'reject'])[max(case coalesce(actions ->> c, 'hold')
                     when 'reject' then 3 when 'hold' then 2 else 1 end)]
            from unnest(codes) c), 'accept')
        end
      $$`);

    // What a lead's checks need from the other leads, looked up after its keys' advisory locks are taken
    // (held until the batch commits, in sorted order): each query here takes a fresh snapshot, so it sees
    // a lead another batch committed while this one waited for the lock.
    this.addSql(`
      create function lead_quality_look(
        lock_keys bigint[], p_phone text, p_email_key text, p_ip text, p_nonce text, window_days int,
        cap_10m int, cap_24h int,
        out dup_phone uuid[], out dup_email uuid[], out ip_10m int, out ip_24h int, out token_lead uuid)
      language plpgsql volatile as $$
      declare
        k bigint;
      begin
        foreach k in array (select array_agg(x order by x) from unnest(lock_keys) x) loop
          perform pg_advisory_xact_lock(k);
        end loop;
        if p_phone is not null then
          select array_agg(id) into dup_phone from (
            select id from website_lead
             where phone_e164 = p_phone and created_at > now() - make_interval(days => window_days)
            union all
            select id from api_lead
             where phone_e164 = p_phone and created_at > now() - make_interval(days => window_days)
            limit 10) d;
        end if;
        if p_email_key is not null then
          select array_agg(id) into dup_email from (
            select id from website_lead
             where email_key = p_email_key and created_at > now() - make_interval(days => window_days)
             limit 10) d;
        end if;
        -- Counted up to the limits only: an address shared by thousands (a carrier's) costs no more than one
        -- with a few leads. "More than the limit" is all the rule needs.
        if p_ip is not null then
          select count(*) into ip_10m from (
            select 1 from website_lead where ip_address = p_ip and created_at > now() - interval '10 minutes'
            limit cap_10m + 1) x;
          select count(*) into ip_24h from (
            select 1 from website_lead where ip_address = p_ip and created_at > now() - interval '24 hours'
            limit cap_24h + 1) x;
        end if;
        if p_nonce is not null then
          select id into token_lead from website_lead where form_token_nonce = p_nonce limit 1;
        end if;
      end
      $$`);
  }

  override down(): void {
    this.addSql('drop function if exists lead_quality_look(bigint[], text, text, text, text, int, int, int)');
    this.addSql('drop function if exists quality_verdict(text[], jsonb)');
    this.addSql('drop table if exists quality_settings');
    this.addSql('alter table website_lead drop column email_key, drop column form_token_nonce');
    for (const table of ['website_lead', 'api_lead']) {
      this.addSql(`
        alter table ${table}
          drop column quality_verdict, drop column quality_reasons, drop column quality_signals,
          drop column quality_decided_by, drop column quality_decided_at, drop column quality_rules_version,
          drop column phone_e164`);
    }
  }
}
