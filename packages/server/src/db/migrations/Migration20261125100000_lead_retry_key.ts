import { Migration } from '@mikro-orm/migrations';

// A retried submission is answered, not refused (issue 22): the hash of the Idempotency-Key the visitor's
// browser sent with the lead, so the same browser re-sending the same lead within 24 hours (its first
// answer lost to a crash or a dropped connection) gets the original id instead of 409. Looked up only
// together with the e-mail (website_lead_email_unique), so it needs no index of its own.
export class Migration20261125100000_lead_retry_key extends Migration {
  override name = 'Migration20261125100000_lead_retry_key';

  override up(): void {
    this.addSql('alter table website_lead add column retry_key_hash text');
  }

  override down(): void {
    this.addSql('alter table website_lead drop column retry_key_hash');
  }
}
