import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  // The database is already gone; closing the app's pools may complain about dead connections.
  await t?.app.close().catch(() => {});
});

describe('when the database goes away', () => {
  it('answers 5xx as JSON without internal details, and /readyz says not ready', async () => {
    t.app.log.level = 'silent'; // the expected error log of this test only
    await t.db.drop();
    const res = await t.app.inject({ url: `/api/leads/${crypto.randomUUID()}` });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      error: 'internal_error',
      message: 'Something went wrong on our side. Please try again.',
    });
    const ready = await t.app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);
  });
});
