import { Migration } from '@mikro-orm/migrations';

// Hand-written so indexes (functional unique e-mail, filter indexes) are exactly what the queries need.
// Runs unchanged on PostgreSQL 15+ (the compose stack) and 18 (the embedded default).
export class Migration20261122000000_initial extends Migration {
  override name = 'Migration20261122000000_initial';

  override up(): void {
    this.addSql(`
      create table website_lead (
        id uuid primary key default gen_random_uuid(),
        first_name text not null,
        last_name text not null,
        email text not null,
        phone text not null,
        street_address text not null,
        zip_code text not null,
        state varchar(2) null,
        birth_month smallint not null,
        birth_day smallint not null,
        birth_year smallint not null,
        consent_given boolean not null,
        opt_in_date text not null,
        opt_in_time text not null,
        certification_id text null,
        lead_source text not null default 'website',
        tcpa_compliant text not null default 'false',
        beneficiary text null,
        ip_address text null,
        user_agent text null,
        trusted_form_url text null,
        owner_token_hash text null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      )`);
    // One lead per e-mail, case-insensitively; the index (not a prior SELECT) makes it race-free.
    this.addSql('create unique index website_lead_email_unique on website_lead (lower(email))');
    this.addSql('create index website_lead_created_at_idx on website_lead (created_at desc, id)');
    this.addSql('create index website_lead_state_created_idx on website_lead (state, created_at desc)');
    this.addSql(
      'create index website_lead_birth_year_created_idx on website_lead (birth_year, created_at desc)',
    );
    this.addSql(
      'create index website_lead_consent_created_idx on website_lead (consent_given, created_at desc)',
    );

    this.addSql(`
      create table api_lead (
        id uuid primary key default gen_random_uuid(),
        first_name text not null,
        last_name text not null,
        street_address text not null,
        city text not null,
        state varchar(2) not null,
        phone text not null,
        birth_month smallint not null,
        birth_day smallint not null,
        birth_year smallint not null,
        beneficiary text null,
        trusted_form_url text null,
        created_at timestamptz not null default now()
      )`);
    this.addSql('create index api_lead_created_at_idx on api_lead (created_at desc, id)');
    this.addSql('create index api_lead_state_created_idx on api_lead (state, created_at desc)');
    this.addSql('create index api_lead_birth_year_created_idx on api_lead (birth_year, created_at desc)');

    this.addSql(`
      create table analytics_event (
        id bigint generated always as identity primary key,
        event_type text not null,
        page text not null,
        referrer text not null,
        referrer_host text null,
        session_id text not null,
        country text null,
        created_at timestamptz not null default now()
      )`);
    this.addSql('create index analytics_event_created_at_idx on analytics_event (created_at)');

    this.addSql(`
      create table admin_user (
        id uuid primary key default gen_random_uuid(),
        username text not null,
        password_hash text not null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      )`);
    this.addSql('create unique index admin_user_username_unique on admin_user (lower(username))');

    this.addSql(`
      create table admin_session (
        sid text primary key,
        data jsonb not null,
        expires_at timestamptz not null,
        created_at timestamptz not null default now()
      )`);
    this.addSql('create index admin_session_expires_at_idx on admin_session (expires_at)');
  }
}
