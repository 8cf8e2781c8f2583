import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('POST /api/analytics/track', () => {
  it('stores a valid event without the client IP', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/analytics/track',
      payload: { eventType: 'page_view', page: 'home', referrer: 'direct', sessionId: 'abc123' },
    });
    expect(res.statusCode).toBe(200);
    const rows = await t.app.db.pool.query('select * from analytics_event');
    expect(rows.rows).toHaveLength(1);
    expect(rows.rows[0]).toMatchObject({ event_type: 'page_view', page: 'home', session_id: 'abc123' });
    expect(Object.values(rows.rows[0])).not.toContain('127.0.0.1');
  });

  it('answers 400 for an unknown event type or missing session', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/analytics/track',
      payload: { eventType: 'hack', page: 'home', referrer: '', sessionId: '' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors.map((e: { field: string }) => e.field)).toEqual(['eventType', 'sessionId']);
  });
});
