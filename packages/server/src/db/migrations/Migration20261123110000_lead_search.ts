import { Migration } from '@mikro-orm/migrations';

// The leads search box (issue 16): "contains" matches on name, e-mail and phone digits, served by
// trigram indexes so a 100k-row table answers without reading every row.
export class Migration20261123110000_lead_search extends Migration {
  override name = 'Migration20261123110000_lead_search';

  override up(): void {
    this.addSql('create extension if not exists pg_trgm');
    this.addSql(
      "create index website_lead_search_name_idx on website_lead using gin (lower(first_name || ' ' || last_name) gin_trgm_ops)",
    );
    this.addSql(
      'create index website_lead_search_email_idx on website_lead using gin (lower(email) gin_trgm_ops)',
    );
    this.addSql(
      'create index website_lead_search_phone_idx on website_lead using gin (phone_digits(phone) gin_trgm_ops)',
    );
    this.addSql(
      "create index api_lead_search_name_idx on api_lead using gin (lower(first_name || ' ' || last_name) gin_trgm_ops)",
    );
    this.addSql(
      'create index api_lead_search_phone_idx on api_lead using gin (phone_digits(phone) gin_trgm_ops)',
    );
  }

  override down(): void {
    for (const index of [
      'website_lead_search_name_idx',
      'website_lead_search_email_idx',
      'website_lead_search_phone_idx',
      'api_lead_search_name_idx',
      'api_lead_search_phone_idx',
    ]) {
      this.addSql(`drop index if exists ${index}`);
    }
  }
}
