import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureInitialAdmin } from '../src/admin/admin-user.service';
import { AdminUser } from '../src/db/entities/admin-user.entity';
import { startTestApp, type TestApp } from './support/test-app';

// The first admin from ADMIN_USERNAME / ADMIN_PASSWORD is insert-if-absent: replicas that race for it
// (even without main.ts's advisory lock) all come up, and exactly one admin exists.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('first admin on concurrent starts', () => {
  it('five racing starts: one creates the admin, the others find it, none fails', async () => {
    const options = { username: 'ops', password: 'replica-password-123', allowGenerated: false };
    const results = await Promise.all(
      Array.from({ length: 5 }, () => ensureInitialAdmin(t.app.db.orm.em.fork(), options)),
    );
    expect(results.filter((r) => r.status === 'created')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'exists')).toHaveLength(4);
    expect(await t.app.db.orm.em.fork().count(AdminUser, {})).toBe(1);
  });
});
