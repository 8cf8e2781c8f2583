import { Migration } from '@mikro-orm/migrations';

// Unique visitors of closed days (ADR 070): the Visitors card counts distinct (day, visitor id) pairs of
// analytics_day_visitor (issue 37), which at 10 million events meant reading 2.5 million visitor-days on
// every dashboard request, three times (the range, its comparison period and the one before). A past day's
// visitors never change, so each closed day's count is kept once: over all its traffic (dimension 'all')
// and per single value of each filter the dashboard has (country, channel, source, campaign) — a visitor
// counts once a day, so a day's counts add up across days. A combination of filters ('filters', its
// filters as JSON) is kept the same way, day by day as dashboards ask for it. The open days are counted
// live. Rebuilding or purging a day's visitors drops its counts; emptying analytics_day_visitor (truncate)
// empties them too.

export class Migration20261203100000_day_visitor_counts extends Migration {
  override name = 'Migration20261203100000_day_visitor_counts';

  override up(): void {
    this.addSql(`
      create table analytics_day_visitor_count (
        day date not null,
        dimension text not null
          check (dimension in ('all', 'country', 'channel', 'source', 'campaign', 'filters')),
        value text not null,
        visitors integer not null check (visitors >= 0),
        primary key (dimension, value, day)
      )`);
    this.addSql(`
      create function analytics_day_visitor_truncated() returns trigger language plpgsql as $$
      begin
        delete from analytics_day_visitor_count;
        return null;
      end
      $$`);
    this.addSql(`
      create trigger analytics_day_visitor_truncate after truncate on analytics_day_visitor
      for each statement execute function analytics_day_visitor_truncated()`);
  }

  override down(): void {
    this.addSql('drop trigger analytics_day_visitor_truncate on analytics_day_visitor');
    this.addSql('drop function analytics_day_visitor_truncated()');
    this.addSql('drop table analytics_day_visitor_count');
  }
}
