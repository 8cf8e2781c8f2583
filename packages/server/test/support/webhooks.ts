import { expect } from 'vitest';
import type { BuildOptions } from '../../src/app';
import { seedAdmin, signIn } from './admin';
import { startTestApp, type TestApp } from './test-app';
import { submitAsVisitor, testClock } from './visitor';
import { type Receiver, startReceiver } from './webhook-receiver';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * What the webhook tests share: an app (local receivers allowed, plus `env`), a receiver on 127.0.0.1,
 * a signed-in admin, and endpoints created through the admin API, each at a path of its own.
 */
export async function startWebhookTestbed(
  env: Record<string, string> = {},
  options: Omit<BuildOptions, 'databaseUrl' | 'clock'> = {},
) {
  const clock = testClock();
  const t: TestApp = await startTestApp(
    { WEBHOOKS_ALLOW_PRIVATE_URLS: 'true', ...env },
    { clock: clock.now, ...options },
  );
  const rx: Receiver = await startReceiver();
  await seedAdmin(t.app);
  const cookies = await signIn(t.app);
  const api = (method: Method, url: string, payload?: object) =>
    t.app.inject({ method, url, cookies, ...(payload ? { payload } : {}) });
  let pathCounter = 0;
  return {
    t,
    rx,
    api,
    clock,
    /** A lead submitted as a visitor would (issue 33: only an accepted lead is delivered). */
    submit: (body: Record<string, unknown>) => submitAsVisitor(t.app, clock, body),
    /** An endpoint for `lead.created` (unless `body` says otherwise) at a receiver path of its own. */
    async createEndpoint(body: Record<string, unknown> = {}) {
      pathCounter += 1;
      const path = `/hook-${pathCounter}`;
      const res = await api('POST', '/api/admin/webhooks', {
        url: `${rx.base}${path}`,
        events: ['lead.created'],
        ...body,
      });
      expect(res.statusCode, res.body).toBe(201);
      const endpoint = res.json() as { id: string; secret: string };
      return { ...endpoint, path };
    },
    async close() {
      await t.close();
      await rx.close();
    },
  };
}

export type WebhookTestbed = Awaited<ReturnType<typeof startWebhookTestbed>>;
