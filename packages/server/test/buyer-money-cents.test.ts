import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/database';
import { installJobQueue } from '../src/webhooks/webhook-worker';
import { createTestDatabase, type TestDatabase } from './support/test-db';

// Money is whole cents (house rule): the buyers' money columns, numeric dollars when issue 34 landed, are
// converted by Migration20261204100000_buyer_money_cents without losing a cent — and back on down().

const BEFORE = 'Migration20261203100000_day_visitor_counts';
const CENTS = 'Migration20261204100000_buyer_money_cents';
let testDb: TestDatabase;
let db: Database;

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = await openDatabase({ url: testDb.url, poolMax: 2 });
  await installJobQueue(testDb.url);
  await db.orm.migrator.up({ to: BEFORE });
});

afterAll(async () => {
  await db?.close();
  await testDb?.drop();
});

const money = async () =>
  (
    await db.pool.query(`
      select (select row_to_json(b) from (select * from buyer) b) as buyer,
        (select row_to_json(u) from buyer_cap_usage u) as usage,
        (select row_to_json(l) from lead_sale l) as sale,
        (select row_to_json(s) from sale_attempt s) as attempt`)
  ).rows[0];

describe('the buyers money columns in whole cents', () => {
  it('converts dollars to cents, and back on down()', async () => {
    const buyer = '7f3c2a52-6a43-4e9a-9a43-0d4a4c1d2e01';
    const lead = '7f3c2a52-6a43-4e9a-9a43-0d4a4c1d2e02';
    const q = (sql: string) => db.pool.query(sql, [buyer, lead]);
    await q(
      `insert into buyer (id, name, price, config) select $1, 'PX', 8.55, '{}' where $2::uuid is not null`,
    );
    await q(`insert into buyer_cap_usage (buyer_id, period_key, leads, amount)
      select $1, 'day:2026-11-26', 3, 1234.56 where $2::uuid is not null`);
    await q(`insert into lead_sale (lead_id, lead_kind, status, buyer_id, price, sold_at)
      values ($2, 'website', 'sold', $1, 0.29, now())`);
    await q(`insert into sale_attempt (id, buyer_id, lead_id, lead_kind, outcome, price, reserved)
      values (gen_random_uuid(), $1, $2, 'website', 'accepted', 0.29, 8.55)`);

    await db.orm.migrator.up({ to: CENTS });
    const after = await money();
    expect(after.buyer.price_cents).toBe(855);
    expect(after.usage.amount_cents).toBe(123456);
    expect(after.sale.price_cents).toBe(29);
    expect(after.attempt).toMatchObject({ price_cents: 29, reserved_cents: 855 });
    // The sale functions take cents: a reservation of 8.55 on a cap of 1,240.00 no longer fits.
    const { rows } = await db.pool.query(
      `select buyer_reserve($1, array['day:2026-11-26'], array[null::integer], array[124000::bigint], 855::bigint) as full`,
      [buyer],
    );
    expect(rows[0].full).toBe('day:2026-11-26');

    await db.orm.migrator.down();
    const back = await money();
    expect(Number(back.buyer.price)).toBe(8.55);
    expect(Number(back.usage.amount)).toBe(1234.56);
    expect(Number(back.sale.price)).toBe(0.29);
    expect(Number(back.attempt.reserved)).toBe(8.55);
  });
});
