import { Migration } from '@mikro-orm/migrations';

// A lead submission in one statement (ADR 051): the e-mail's advisory lock and the suppression check
// happen inside this function, in that order. A VOLATILE function's queries each take a fresh snapshot
// (READ COMMITTED), so the check sees an opt-out that committed while the statement waited for the
// lock — which a subquery in the statement itself, reading the statement's older snapshot, would not.
// The lock is transaction-scoped: held until the submission's statement commits.
export class Migration20261123100000_suppression_check extends Migration {
  override name = 'Migration20261123100000_suppression_check';

  override up(): void {
    this.addSql(`
      create function suppressed_since_locked(lock_key bigint, email_hash text, phone_hash text)
      returns timestamptz language plpgsql volatile as $$
      declare
        since timestamptz;
      begin
        perform pg_advisory_xact_lock(lock_key);
        select min(created_at) into since from suppression
         where (kind = 'email' and value_hash = email_hash) or (kind = 'phone' and value_hash = phone_hash);
        return since;
      end
      $$`);
  }

  override down(): void {
    this.addSql('drop function suppressed_since_locked(bigint, text, text)');
  }
}
