import { Migration } from '@mikro-orm/migrations';

// hit_rate_limit() counts several hits in one call (issue 14): a process sends the hits on one key that
// arrive while its previous call for that key runs as one call, and hands each caller its own count
// (services/rate-limit.service.ts). Same window rules; a call without the count is one hit, as before.

const FUNCTION = (counted: string, hitCount: string) => `
      create function hit_rate_limit(bucket_key text, window_secs int${counted}, out hits int, out retry_after int)
      language plpgsql volatile as $$
      begin
        perform set_config('synchronous_commit', 'off', true);
        insert into rate_limit_bucket as b (key, window_start, count) values (bucket_key, now(), ${hitCount})
        on conflict (key) do update set
          count = case when b.window_start <= now() - make_interval(secs => window_secs) then ${hitCount}
                  else b.count + ${hitCount} end,
          window_start = case when b.window_start <= now() - make_interval(secs => window_secs)
                         then now() else b.window_start end
        returning b.count,
          greatest(1, ceil(extract(epoch from (b.window_start + make_interval(secs => window_secs) - now()))))::int
        into hits, retry_after;
      end
      $$`;

export class Migration20261124230000_rate_limit_hits extends Migration {
  override name = 'Migration20261124230000_rate_limit_hits';

  override up(): void {
    this.addSql('drop function hit_rate_limit(text, int)');
    this.addSql(FUNCTION(', hit_count int default 1', 'hit_count'));
  }

  override down(): void {
    this.addSql('drop function hit_rate_limit(text, int, int)');
    this.addSql(FUNCTION('', '1'));
  }
}
