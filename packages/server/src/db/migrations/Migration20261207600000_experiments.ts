import { Migration } from '@mikro-orm/migrations';

// Landing experiments (issue 48, ADR 075). An experiment is data: its arms (key, name, weight, content of
// the closed set of slots, and the hash of that content) are one jsonb list, frozen once it has started.
// One running experiment or rollout per page (partial unique index): a second start answers 409.
//
// Exposures: one row per experiment, day, visitor and arm (the cookieless visitor id of the analytics,
// which belongs to one day), with the first and last counted view and how many; `visitors` counts the
// (day, visitor) pairs, so a visitor counts once a day, as the analytics count visitors.
//
// A website lead records the experiment and arm of the page it was sent from (carried by its signed form
// token), and its consent receipt the arm and the hash of the content shown.

export class Migration20261207600000_experiments extends Migration {
  override name = 'Migration20261207600000_experiments';

  override up(): void {
    this.addSql(`
      create table experiment (
        id uuid primary key,
        name text not null,
        hypothesis text null,
        page text not null check (page in ('landing')),
        status text not null check (status in ('draft', 'running', 'stopped')),
        primary_metric text not null
          check (primary_metric in ('revenue_per_visitor', 'accepted_lead_rate', 'lead_rate')),
        planned_visitors int not null check (planned_visitors > 0),
        arms jsonb not null,
        -- The assignment's seed: a new one reshuffles every visitor.
        seed text not null,
        -- Stopped with keep: this arm is served to everyone (a rollout) until the rollout is stopped.
        rollout_arm text null,
        started_at timestamptz null,
        stopped_at timestamptz null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        check (rollout_arm is null or status = 'stopped')
      )`);
    this.addSql(`
      create unique index experiment_one_live_per_page on experiment (page)
      where status = 'running' or rollout_arm is not null`);
    this.addSql(`
      create table experiment_exposure (
        experiment_id uuid not null references experiment (id) on delete cascade,
        day date not null,
        visitor_id bigint not null,
        arm text not null,
        first_at timestamptz not null,
        last_at timestamptz not null,
        views int not null default 1,
        primary key (experiment_id, day, visitor_id, arm)
      )`);
    this.addSql(
      'alter table website_lead add column experiment_id uuid null, add column experiment_arm text null',
    );
    this.addSql(
      'create index website_lead_experiment_idx on website_lead (experiment_id, experiment_arm) where experiment_id is not null',
    );
    this.addSql(`
      alter table consent_receipt add column experiment_id uuid null, add column experiment_arm text null,
        add column experiment_content_hash text null`);
  }
}
