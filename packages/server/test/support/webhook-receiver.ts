import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A real webhook receiver on 127.0.0.1 for the webhook tests and the bench: records every request it
// gets (per path), and answers as each path's handler says (200 by default).

export type Received = { path: string; headers: IncomingHttpHeaders; body: string; at: number };
export type Handler = (req: Received, res: ServerResponse) => void;

export async function startReceiver() {
  const received: Received[] = [];
  const handlers = new Map<string, Handler>();
  const waiters = new Set<() => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = {
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      received.push(r);
      for (const wake of waiters) wake();
      const handler = handlers.get(r.path);
      if (handler) handler(r, res);
      else res.end('ok');
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    received,
    on(path: string, handler: Handler) {
      handlers.set(path, handler);
    },
    at(path: string) {
      return received.filter((r) => r.path === path);
    },
    /** Resolves once `check()` holds (re-checked at every request), or rejects after `ms`. */
    async waitFor<T>(check: () => T | undefined | false, ms = 15_000): Promise<T> {
      const deadline = Date.now() + ms;
      for (;;) {
        const value = check();
        if (value) return value;
        if (Date.now() > deadline) throw new Error('receiver: condition not met in time');
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(wake, 100);
          waiters.add(wake);
        });
      }
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
