import { Migration } from '@mikro-orm/migrations';

// Ad cost (issue 35): what a campaign's clicks cost on a day, imported from the ad platforms' reports or
// entered by hand, in whole cents of the one currency (AD_COST_CURRENCY). One row per day, source and
// campaign — the unique index is what makes a re-import replace a day instead of adding to it, and what
// the sources table's one grouped query reads by day. Sources are kept lower case (as traffic's are);
// campaigns as the platform names them, compared without regard to case.

export class Migration20261202100000_ad_costs extends Migration {
  override name = 'Migration20261202100000_ad_costs';

  override up(): void {
    this.addSql(`
      create table ad_cost (
        day date not null,
        source text not null check (source = lower(btrim(source)) and source <> ''),
        campaign text not null check (campaign = btrim(campaign) and campaign <> ''),
        cost_cents bigint not null check (cost_cents >= 0),
        currency text not null,
        imported_at timestamptz not null default now()
      )`);
    this.addSql('create unique index ad_cost_key_idx on ad_cost (day, source, lower(campaign))');
  }

  override down(): void {
    this.addSql('drop table if exists ad_cost');
  }
}
