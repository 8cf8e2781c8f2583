import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAdmin, signIn } from './support/admin';
import { startTestApp, type TestApp } from './support/test-app';

// Landing experiments as data (issue 48): the admin API's rules — a draft with a closed set of slots, the
// control without content, weights summing to 100, one running experiment per page, arms frozen once
// started, stop with and without keep (a rollout, itself stoppable), delete.

let t: TestApp;
let cookies: Record<string, string>;
const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, cookies, ...(payload ? { payload } : {}) });

const arms = (second: object = { headline: 'Your State May Owe You Money' }) => [
  { key: 'control', name: 'Control', weight: 50, content: {} },
  { key: 'owed', name: 'Owed', weight: 50, content: second },
];
const create = async (body: object = {}) => {
  const res = await api('POST', '/api/admin/experiments', { name: 'Headline', arms: arms(), ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as {
    id: string;
    status: string;
    plannedVisitors: number;
    arms: { contentHash: string }[];
  };
};

beforeAll(async () => {
  t = await startTestApp();
  await seedAdmin(t.app);
  cookies = await signIn(t.app);
});
afterAll(async () => {
  await t?.close();
});

describe('experiments API', () => {
  it('needs an admin session', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/experiments' });
    expect(res.statusCode).toBe(401);
  });

  it('creates a draft with a planned size from the power calculation and a content hash per arm', async () => {
    const e = await create({ hypothesis: 'Owed beats waiting' });
    expect(e).toMatchObject({ status: 'draft', page: 'landing', primaryMetric: 'revenue_per_visitor' });
    // 2 arms × 8,155 visitors: (1.95996 + 0.84162)² × (0.05·0.95 + 0.06·0.94) / 0.01² = 7.84888 × 1039
    // = 8,154.98, rounded up (5 % → 6 %, 95 % two-sided, 80 % power).
    expect(e.plannedVisitors).toBe(2 * 8_155);
    expect(e.arms[0]?.contentHash).toMatch(/^[0-9a-f]{64}$/);
    expect(e.arms[0]?.contentHash).not.toBe(e.arms[1]?.contentHash);
    const got = await api('GET', `/api/admin/experiments/${e.id}`);
    expect(got.json()).toMatchObject({ id: e.id, hypothesis: 'Owed beats waiting' });
    expect(got.json()).not.toHaveProperty('seed');
  });

  it('refuses an unknown slot by name, content on the control, weights not summing to 100, 1 or 5 arms', async () => {
    const unknown = await api('POST', '/api/admin/experiments', {
      name: 'x',
      arms: arms({ headline: 'A', consentText: 'I agree to nothing' }),
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().fieldErrors).toEqual([
      expect.objectContaining({
        field: 'arms.1.content',
        message: expect.stringContaining('unknown slot "consentText"'),
      }),
    ]);

    const control = await api('POST', '/api/admin/experiments', {
      name: 'x',
      arms: [
        { key: 'a', name: 'A', weight: 50, content: { headline: 'H' } },
        { key: 'b', name: 'B', weight: 50, content: {} },
      ],
    });
    expect(control.statusCode).toBe(400);
    expect(control.body).toContain('the first arm is the control');

    const weights = await api('POST', '/api/admin/experiments', {
      name: 'x',
      arms: [
        { key: 'a', name: 'A', weight: 50 },
        { key: 'b', name: 'B', weight: 40, content: { formFirst: false } },
      ],
    });
    expect(weights.statusCode).toBe(400);
    expect(weights.body).toContain('the weights must sum to 100 (they sum to 90)');

    const one = await api('POST', '/api/admin/experiments', {
      name: 'x',
      arms: [{ key: 'a', name: 'A', weight: 100 }],
    });
    expect(one.statusCode).toBe(400);
    const tooLong = await api('POST', '/api/admin/experiments', {
      name: 'x',
      arms: arms({ heroButton: 'x'.repeat(41) }),
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.body).toContain('heroButton is too long');
  });

  it('runs one experiment per page, freezes the arms once started, stops with keep into a rollout', async () => {
    const a = await create();
    const b = await create({ name: 'Second' });
    expect((await api('POST', `/api/admin/experiments/${a.id}/start`)).statusCode).toBe(200);
    const second = await api('POST', `/api/admin/experiments/${b.id}/start`);
    expect(second.statusCode).toBe(409);

    const frozen = await api('PATCH', `/api/admin/experiments/${a.id}`, {
      arms: arms({ headline: 'Other' }),
    });
    expect(frozen.statusCode).toBe(409);
    const renamed = await api('PATCH', `/api/admin/experiments/${a.id}`, { name: 'Renamed' });
    expect(renamed.json()).toMatchObject({ name: 'Renamed', status: 'running' });
    expect((await api('DELETE', `/api/admin/experiments/${a.id}`)).statusCode).toBe(409);

    const badKeep = await api('POST', `/api/admin/experiments/${a.id}/stop`, { keep: 'nope' });
    expect(badKeep.statusCode).toBe(400);
    const kept = await api('POST', `/api/admin/experiments/${a.id}/stop`, { keep: 'owed' });
    expect(kept.json()).toMatchObject({ status: 'stopped', rollout: 'owed' });
    // The rollout holds the page: no other experiment starts until it is stopped.
    expect((await api('POST', `/api/admin/experiments/${b.id}/start`)).statusCode).toBe(409);
    const ended = await api('POST', `/api/admin/experiments/${a.id}/stop`);
    expect(ended.json()).toMatchObject({ status: 'stopped', rollout: null });
    expect((await api('POST', `/api/admin/experiments/${a.id}/stop`)).statusCode).toBe(409);
    expect((await api('POST', `/api/admin/experiments/${a.id}/start`)).statusCode).toBe(409);

    expect((await api('POST', `/api/admin/experiments/${b.id}/start`)).statusCode).toBe(200);
    await api('POST', `/api/admin/experiments/${b.id}/stop`);
    const list = (await api('GET', '/api/admin/experiments')).json() as { id: string; visitors: number }[];
    expect(list.map((e) => e.id)).toEqual(expect.arrayContaining([a.id, b.id]));
    expect((await api('DELETE', `/api/admin/experiments/${a.id}`)).json()).toEqual({
      id: a.id,
      deleted: true,
    });
    expect((await api('GET', `/api/admin/experiments/${a.id}`)).statusCode).toBe(404);
  });

  it('previews an arm’s content as it would be served, saved or not, without a form token', async () => {
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/admin/experiments/preview',
      payload: { content: {} },
    });
    expect(anonymous.statusCode).toBe(401);
    const res = await api('POST', '/api/admin/experiments/preview', {
      content: { headline: 'Money Your State Holds For You', heroButton: 'See What Is Yours' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { html } = res.json() as { html: string };
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html.match(/<h1[^>]*>([^<]*)<\/h1>/)?.[1]).toBe('Money Your State Holds For You');
    expect(html).toContain('See What Is Yours');
    expect(html).not.toContain('name="formToken"');
    // The page without its app: no script to run in the editor's frame.
    expect(html).not.toMatch(/<script|modulepreload/i);
    expect(html).toMatch(/<link[^>]+rel="stylesheet"/);
    // The control's preview is the page as built: its own headline.
    const control = (await api('POST', '/api/admin/experiments/preview', { content: {} })).json() as {
      html: string;
    };
    expect(control.html).toContain('Find Out If Unclaimed Money Is Waiting For You');
    const unknown = await api('POST', '/api/admin/experiments/preview', { content: { consentText: 'x' } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('unknown slot \\"consentText\\"');
  });
});
