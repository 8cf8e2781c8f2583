import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122000000_initial } from './Migration20261122000000_initial';
import { Migration20261122010000_admin_auth } from './Migration20261122010000_admin_auth';

// Explicit list so the bundled server needs no file discovery. Append new migrations in order.
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261122000000_initial', class: Migration20261122000000_initial },
  { name: 'Migration20261122010000_admin_auth', class: Migration20261122010000_admin_auth },
];
