import { Migration } from '@mikro-orm/migrations';

// Monthly companions of the country and referrer rollups (ADR 020). A year of traffic from a few
// hundred referrers is ~400k daily referrer rows — summing them took 70–100 ms — but only ~15k monthly
// ones; the dashboard reads whole months here and only the loose days at a range's ends from the
// daily tables. Filled from the daily rollups so existing data carries over.
export class Migration20261122031000_analytics_monthly_rollups extends Migration {
  override name = 'Migration20261122031000_analytics_monthly_rollups';

  override up(): void {
    this.addSql(`
      create table analytics_monthly_country (
        month date not null,
        event_type text not null,
        country text not null,
        count bigint not null,
        primary key (month, event_type, country)
      )`);
    this.addSql(`
      create table analytics_monthly_referrer (
        month date not null,
        event_type text not null,
        referrer text not null,
        count bigint not null,
        primary key (month, event_type, referrer)
      )`);
    this.addSql(`
      create table analytics_monthly_country_referrer (
        country text not null,
        month date not null,
        event_type text not null,
        referrer text not null,
        count bigint not null,
        primary key (country, month, event_type, referrer)
      )`);
    this.addSql(`
      insert into analytics_monthly_country (month, event_type, country, count)
      select date_trunc('month', day)::date, event_type, country, sum(count)
      from analytics_daily_country group by 1, 2, 3`);
    this.addSql(`
      insert into analytics_monthly_referrer (month, event_type, referrer, count)
      select date_trunc('month', day)::date, event_type, referrer, sum(count)
      from analytics_daily_referrer group by 1, 2, 3`);
    this.addSql(`
      insert into analytics_monthly_country_referrer (country, month, event_type, referrer, count)
      select country, date_trunc('month', day)::date, event_type, referrer, sum(count)
      from analytics_daily_country_referrer group by 1, 2, 3, 4`);
  }
}
