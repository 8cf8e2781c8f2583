import { type ChildProcess, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnTracked } from '../support/child-processes';
import { freePort, type ServerProcess, startServerProcess } from '../support/server-process';
import { createTestDatabase, type TestDatabase } from '../support/test-db';

// The compose proxy (infra/proxy/Caddyfile) run natively with Debian's Caddy in front of the built
// server configured as in docker-compose.yml (TRUST_PROXY = the proxy's address). The visitor connects from 127.0.0.5 so
// its address differs from the proxy's (127.0.0.1): the app must see the visitor, never a forged
// X-Forwarded-For, and /metrics must not be reachable through the proxy.

const caddyfile = path.resolve(import.meta.dirname, '../../../../infra/proxy/Caddyfile');
const hasCaddy = spawnSync('sh', ['-c', 'command -v caddy']).status === 0;
const TOKEN = 'proxy-test-metrics-token-0123456789abcdef';
const VISITOR = '127.0.0.5';

/** One HTTP request from the visitor's own loopback address. */
function visit(
  port: number,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        localAddress: VISITOR,
        method: options.method ?? 'GET',
        path: options.path,
        headers: options.headers,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d) => {
          body += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

describe.skipIf(!hasCaddy)('the compose reverse proxy (Caddy), run natively', () => {
  let db: TestDatabase;
  let app: ServerProcess;
  let caddy: ChildProcess;
  let proxyPort: number;
  let caddyHome: string;
  let caddyLog = '';

  beforeAll(async () => {
    db = await createTestDatabase();
    // As in docker-compose.yml: trust exactly the proxy's address (here it connects from 127.0.0.1).
    app = await startServerProcess({ DATABASE_URL: db.url, TRUST_PROXY: '127.0.0.1', METRICS_TOKEN: TOKEN });
    proxyPort = await freePort();
    caddyHome = mkdtempSync(path.join(os.tmpdir(), 'uf-caddy-'));
    caddy = spawnTracked('caddy', ['run', '--config', caddyfile, '--adapter', 'caddyfile'], {
      env: {
        ...process.env,
        HOME: caddyHome,
        XDG_DATA_HOME: caddyHome,
        XDG_CONFIG_HOME: caddyHome,
        SITE_ADDRESS: `:${proxyPort}`,
        APP_HOST: '127.0.0.1',
        APP_PORT: new URL(app.url).port,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    caddy.stdout?.on('data', (d) => {
      caddyLog += d;
    });
    caddy.stderr?.on('data', (d) => {
      caddyLog += d;
    });
    const deadline = Date.now() + 20_000;
    for (;;) {
      const ready = await visit(proxyPort, { path: '/readyz' }).catch(() => null);
      if (ready?.status === 200) break;
      if (Date.now() > deadline || caddy.exitCode !== null) throw new Error(`proxy not ready:\n${caddyLog}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 60_000);

  afterAll(async () => {
    caddy?.kill('SIGKILL');
    await app?.stop('SIGKILL');
    await db?.drop();
    if (caddyHome) rmSync(caddyHome, { recursive: true, force: true });
  });

  it('serves the site and the API through the proxy', async () => {
    const page = await visit(proxyPort, { path: '/' });
    expect(page.status).toBe(200);
    const api = await visit(proxyPort, { path: '/api/no-such-path' });
    expect(api.status).toBe(404);
    expect(JSON.parse(api.body)).toMatchObject({ error: 'not_found' });
  });

  it("gives the app the visitor's address, not the proxy's and not a forged header", async () => {
    const res = await visit(proxyPort, {
      method: 'POST',
      path: '/api/admin/login',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.9' },
      body: JSON.stringify({ username: 'nobody', password: 'wrong-password' }),
    });
    expect(res.status).toBe(401);
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      const { rows } = await c.query(
        "select ip_address from audit_log where action = 'admin.sign_in_failed'",
      );
      expect(rows).toEqual([{ ip_address: VISITOR }]);
    } finally {
      await c.end();
    }
  });

  it('keeps /metrics away from the public, even with the token; the internal network can read it', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    expect((await visit(proxyPort, { path: '/metrics', headers: auth })).status).toBe(404);
    expect((await visit(proxyPort, { path: '/metrics/anything', headers: auth })).status).toBe(404);
    const direct = await fetch(`${app.url}/metrics`, { headers: auth });
    expect(direct.status).toBe(200);
    expect(await direct.text()).toContain('http_requests_total');
  });
});
