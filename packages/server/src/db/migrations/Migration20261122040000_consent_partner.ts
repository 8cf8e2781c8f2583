import { Migration } from '@mikro-orm/migrations';

// Consent evidence, opt-outs and the partner API (ADR 030–033). Runs on PostgreSQL 15+.
export class Migration20261122040000_consent_partner extends Migration {
  override name = 'Migration20261122040000_consent_partner';

  override up(): void {
    // One definition of "the phone number" for matching: the last 10 digits, whatever the separators
    // or +1 prefix. Used by expression indexes, so it must be immutable.
    this.addSql(`
      create function phone_digits(value text) returns text
      language sql immutable parallel safe
      as $$ select right(regexp_replace(value, '[^0-9]', '', 'g'), 10) $$`);

    // Evidence rows are written once. A trigger (not just the absence of an update path in the code)
    // makes that hold for every client of the database, including an operator's psql session.
    this.addSql(`
      create function forbid_update() returns trigger
      language plpgsql
      as $$ begin raise exception '% rows are immutable', tg_table_name; end $$`);

    this.addSql(`
      create table consent_text (
        hash text primary key,
        version text not null,
        body text not null,
        created_at timestamptz not null default now()
      )`);
    this.addSql(
      'create trigger consent_text_immutable before update on consent_text for each row execute function forbid_update()',
    );

    this.addSql(`
      create table consent_receipt (
        id uuid primary key,
        lead_id uuid not null references website_lead (id) on delete cascade,
        consent_given boolean not null,
        consent_text_hash text not null references consent_text (hash),
        consent_text_version text not null,
        ip_address text null,
        user_agent text null,
        page_url text null,
        trusted_form_url text null,
        gpc boolean not null,
        created_at timestamptz not null
      )`);
    this.addSql('create unique index consent_receipt_lead_unique on consent_receipt (lead_id)');
    this.addSql(
      'create trigger consent_receipt_immutable before update on consent_receipt for each row execute function forbid_update()',
    );

    // Suppression list: SHA-256 of the normalised address or phone, never the value itself, so it can
    // outlive a deletion request without keeping personal data (ADR 031).
    this.addSql(`
      create table suppression (
        id bigint generated always as identity primary key,
        kind text not null check (kind in ('email', 'phone')),
        value_hash text not null,
        source text not null,
        created_at timestamptz not null default now()
      )`);
    this.addSql('create unique index suppression_kind_value_unique on suppression (kind, value_hash)');

    this.addSql(`
      alter table website_lead
        add column opted_out_at timestamptz null,
        add column do_not_sell boolean not null default false`);
    this.addSql('create index website_lead_phone_digits_idx on website_lead (phone_digits(phone))');

    this.addSql(`
      create table partner (
        id uuid primary key default gen_random_uuid(),
        name text not null,
        created_at timestamptz not null default now()
      )`);
    this.addSql('create unique index partner_name_unique on partner (lower(name))');
    this.addSql(`
      create table partner_api_key (
        id uuid primary key default gen_random_uuid(),
        partner_id uuid not null references partner (id),
        key_prefix text not null,
        key_hash text not null,
        created_at timestamptz not null default now(),
        last_used_at timestamptz null,
        revoked_at timestamptz null
      )`);
    this.addSql('create unique index partner_api_key_hash_unique on partner_api_key (key_hash)');
    this.addSql(`
      create table partner_idempotency (
        partner_id uuid not null references partner (id),
        idempotency_key text not null,
        request_hash text not null,
        response_status smallint not null,
        response_body jsonb not null,
        created_at timestamptz not null default now(),
        primary key (partner_id, idempotency_key)
      )`);
    this.addSql('create index partner_idempotency_created_at_idx on partner_idempotency (created_at)');

    this.addSql(`
      alter table api_lead
        add column partner_id uuid null references partner (id),
        add column opted_out_at timestamptz null`);
    // The duplicate policy's lookup: same partner, same phone, same last name, newest first.
    this.addSql(
      'create index api_lead_partner_duplicate_idx on api_lead (partner_id, phone_digits(phone), lower(last_name), created_at desc)',
    );
    this.addSql('create index api_lead_phone_digits_idx on api_lead (phone_digits(phone))');
  }
}
