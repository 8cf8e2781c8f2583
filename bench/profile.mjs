// CPU profile of the built server under one route's load (ADR 051): where a request's time goes.
//   node scripts/bootstrap.mjs bench -- (not picked up: run it directly, after a build, on Node 24)
//   node bench/profile.mjs track|submit|partner|submit-webhooks [--duration 10] [--log-level info]
// submit-webhooks: submit with two endpoints subscribed to every event on a receiver on 127.0.0.1 (ADR 062).
// Starts the server with --cpu-prof on a fresh database (DATABASE_URL / BENCH_DATABASE_URL admin URL),
// loads the route with autocannon, stops the server (the profile is written at exit) and prints the
// self time per package/area and the top functions.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import {
  apiLead,
  BROWSER_UA,
  benchAdminUrl,
  formTokens,
  option,
  trackEvent,
  visitorLead,
} from './support/bodies.mjs';
import {
  pg,
  printedPort,
  readyAt,
  root,
  runSql,
  serverArgv,
  startProcess,
  stopProcess,
  withDatabase,
} from './support/processes.mjs';

const ROUTE = process.argv[2] ?? 'track';
const DURATION = Number(option('duration', '10'));
const LOG_LEVEL = option('log-level', 'info');
const adminUrl = benchAdminUrl();
/** A visitor's lead with a form token handed out by `token()`. */
const visitorSubmit = (token) => visitorLead(token());
/** Each route's request: `{ body, headers? }`. */
const BODIES = {
  track: () => ({ body: trackEvent() }),
  submit: visitorSubmit,
  'submit-webhooks': visitorSubmit,
  partner: () => ({ body: apiLead() }),
};
const PATHS = {
  track: '/api/analytics/track',
  submit: '/api/submit-search',
  'submit-webhooks': '/api/submit-search',
  partner: '/api/partner/leads',
};
const CONNECTIONS = { track: 64, submit: 32, 'submit-webhooks': 32, partner: 32 };

function area(url) {
  if (!url) return '(native/V8)';
  if (url.startsWith('node:')) return url.split('/')[0];
  const m = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1];
  if (url.includes('/dist/main.js')) return 'app code (dist/main.js)';
  return url.replace(root, '.');
}

async function main() {
  const dbName = `uf_profile_${Date.now().toString(36)}`;
  const dbUrl = withDatabase(adminUrl, dbName);
  await runSql(adminUrl, `create database ${dbName}`);
  const profDir = mkdtempSync(path.join(os.tmpdir(), 'uf-prof-'));
  try {
    const port = 21_000 + Math.floor(Math.random() * 10_000);
    const { child } = await startProcess(
      'server',
      serverArgv('--cpu-prof', `--cpu-prof-dir=${profDir}`),
      {
        DATABASE_URL: dbUrl,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL,
        DB_POOL_MAX: '20',
        PARTNER_RATE_LIMIT_PER_MINUTE: '100000',
        WEBHOOKS_ALLOW_PRIVATE_URLS: 'true',
        TRUST_PROXY: '127.0.0.1',
      },
      readyAt(port),
    );
    let receiver;
    if (ROUTE === 'submit-webhooks') {
      const rx = await startProcess('receiver', ['bench/support/webhook-receiver.mjs'], {}, printedPort);
      receiver = rx.child;
      const db = new pg.Client({ connectionString: dbUrl });
      await db.connect();
      const events = [
        'lead.created',
        'lead.beneficiary_updated',
        'api_lead.created',
        'lead.opted_out',
        'lead.deleted',
      ];
      for (const p of ['/a', '/b']) {
        await db.query(
          'insert into webhook_endpoint (id, url, events, secret) values (gen_random_uuid(), $1, $2, $3)',
          [`http://127.0.0.1:${rx.result}${p}`, events, `whsec_${Buffer.alloc(32, 7).toString('base64')}`],
        );
      }
      await db.end();
    }
    let logBytes = 0;
    child.stdout.on('data', (d) => {
      logBytes += d.length;
    });
    const headers = { 'content-type': 'application/json', 'user-agent': BROWSER_UA };
    if (ROUTE === 'partner') {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['packages/server/dist/cli.js', 'api-key:create', 'Profile Partner'],
        { cwd: root, env: { ...process.env, DATABASE_URL: dbUrl, LOG_LEVEL: 'warn' } },
      );
      headers.authorization = `Bearer ${/ufk_[A-Za-z0-9_-]+/.exec(stdout)?.[0]}`;
    }
    // Website leads come as visitors send them (issue 33), so every lead-quality check and look-up runs.
    const token = BODIES[ROUTE] === visitorSubmit ? await formTokens(`http://127.0.0.1:${port}`) : undefined;
    const build = () => {
      const { body, headers: own = {} } = BODIES[ROUTE](token);
      return { body: JSON.stringify(body), headers: { ...headers, ...own } };
    };
    const result = await new Promise((resolve, reject) =>
      autocannon(
        {
          url: `http://127.0.0.1:${port}${PATHS[ROUTE]}`,
          connections: CONNECTIONS[ROUTE],
          duration: DURATION,
          requests: [
            {
              method: 'POST',
              setupRequest: (req) => ({ ...req, ...build() }),
            },
          ],
        },
        (err, r) => (err ? reject(err) : resolve(r)),
      ),
    );
    await stopProcess(child);
    if (receiver) await stopProcess(receiver);
    const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
    const profile = JSON.parse(readFileSync(path.join(profDir, file), 'utf8'));
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const dt = new Map();
    for (let i = 0; i < profile.samples.length; i++) {
      const id = profile.samples[i];
      dt.set(id, (dt.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
    }
    const total = [...dt.values()].reduce((a, b) => a + b, 0);
    const idle = [...dt]
      .filter(([id]) => byId.get(id).callFrame.functionName === '(idle)')
      .reduce((a, [, t]) => a + t, 0);
    const areas = new Map();
    const fns = new Map();
    for (const [id, t] of dt) {
      const { callFrame } = byId.get(id);
      if (callFrame.functionName === '(idle)') continue;
      const a = area(callFrame.url);
      areas.set(a, (areas.get(a) ?? 0) + t);
      const key = `${callFrame.functionName || '(anonymous)'} ${callFrame.url ? `${area(callFrame.url)}:${callFrame.lineNumber + 1}` : ''}`;
      fns.set(key, (fns.get(key) ?? 0) + t);
    }
    const busy = total - idle;
    const pct = (t) => `${((t / busy) * 100).toFixed(1)} %`;
    console.info(
      `${PATHS[ROUTE]}: ${Math.round(result['2xx'] / DURATION)} req/s (2xx), p99 ${result.latency.p99} ms, ` +
        `non-2xx ${result.non2xx}, LOG_LEVEL=${LOG_LEVEL} (${Math.round(logBytes / Math.max(1, result['2xx']))} log bytes per request); busy ${((busy / total) * 100).toFixed(0)} % of the profile`,
    );
    console.info('\nself time by area (share of busy samples):');
    for (const [a, t] of [...areas].sort((x, y) => y[1] - x[1]).slice(0, 12))
      console.info(`  ${pct(t).padStart(7)}  ${a}`);
    console.info('\ntop functions by self time:');
    for (const [f, t] of [...fns].sort((x, y) => y[1] - x[1]).slice(0, 25))
      console.info(`  ${pct(t).padStart(7)}  ${f}`);
    // Who calls the three most expensive functions: the JavaScript frames above each sample.
    const parent = new Map();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const label = (n) =>
      `${n.callFrame.functionName || '(anonymous)'} ${area(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
    const topNames = [...fns]
      .sort((x, y) => y[1] - x[1])
      .slice(0, 3)
      .map(([f]) => f.split(' ')[0]);
    for (const name of topNames) {
      const stacks = new Map();
      for (const [id, t] of dt) {
        const n = byId.get(id);
        if ((n.callFrame.functionName || '(anonymous)') !== name) continue;
        const chain = [];
        for (let p = parent.get(id); p !== undefined && chain.length < 6; p = parent.get(p)) {
          const pn = byId.get(p);
          if (pn.callFrame.url) chain.push(label(pn));
        }
        const key = chain.join(' < ');
        stacks.set(key, (stacks.get(key) ?? 0) + t);
      }
      console.info(`\ncallers of ${name}:`);
      for (const [k, t] of [...stacks].sort((x, y) => y[1] - x[1]).slice(0, 4))
        console.info(`  ${pct(t).padStart(7)}  ${k}`);
    }
  } finally {
    await runSql(adminUrl, `drop database if exists ${dbName} with (force)`);
  }
}

await main();
