// The fault-and-attack probe of issue 22 (ADR 056), rerunnable after a build:
//   node bench/faults-probe.mjs [sigterm|kill9|pgkill|fuzz|slow|lock|all]   (needs DATABASE_URL, except pgkill)
//   node bench/faults-probe.mjs lock|stopbacklog
// Each part starts the built server (ports PROBE_PORT, default 4210 and up), loads it and prints counts:
// - sigterm: SIGTERM under submission load — acknowledged, stored, lost, 503s, resets (sent, no answer),
//   refused connections (after the listener closed).
// - kill9: kill -9 of the server under load, restart, retry every unanswered submission with its own
//   Idempotency-Key — acknowledged and lost, and how the retries were answered (200 same lead / 409).
// - pgkill: kill -9 of the embedded PostgreSQL under load (no DATABASE_URL) — statuses while it restarts.
// - fuzz: malformed requests of every kind — the count of 5xx answers (must be 0).
// - slow: 200 connections sending their body at 1 byte/s — how many are cut, and when.
// - lock: the leads table locked for 30 s under submission load with analytics events beside it (issue
//   38) — the slowest answer to a lead request and its status, and what /readyz said meanwhile.
// - stopbacklog: SIGTERM while two webhook endpoints (a receiver on 127.0.0.1 answering in 100 ms) have
//   a backlog of deliveries (issue 38) — error lines in the log, jobs left locked, deliveries left pending.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pg, root, runSql, withDatabase } from './support/processes.mjs';

const PORT = Number(process.env.PROBE_PORT ?? 4210);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let counter = 0;
const lead = () => ({
  firstName: 'Pro',
  lastName: 'Be',
  streetAddress: '1 Main St',
  zipCode: '10001',
  email: `probe.${Date.now()}.${++counter}.${randomBytes(3).toString('hex')}@example.com`,
  phone: '(555) 123-4567',
  birthMonth: '5',
  birthDay: '17',
  birthYear: '1970',
  consentGiven: 'true',
});

async function freshDatabase() {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error('set DATABASE_URL (a PostgreSQL where databases may be created)');
  const name = `uf_probe_${Date.now().toString(36)}`;
  await runSql(base, `create database ${name}`);
  return {
    url: withDatabase(base, name),
    drop: () => runSql(base, `drop database if exists ${name} with (force)`),
  };
}

function startServer(env, port) {
  const child = spawn(process.execPath, ['packages/server/dist/main.js'], {
    cwd: root,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => {
    output += d;
  });
  child.stderr.on('data', (d) => {
    output += d;
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  const ready = (async () => {
    for (let i = 0; i < 600; i++) {
      if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
      try {
        if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) return;
      } catch {}
      await sleep(100);
    }
    throw new Error(`server not ready: ${output}`);
  })();
  return { child, exited, ready, output: () => output, url: `http://127.0.0.1:${port}` };
}

/** Submission load from `workers` loops; every outcome counted, unanswered ones kept for a retry. */
function load(url, workers = 16) {
  const r = { acked: [], statuses: {}, resets: [], refused: 0, unanswered: [] };
  let running = true;
  const loops = Array.from({ length: workers }, async () => {
    while (running) {
      const body = lead();
      const key = randomBytes(12).toString('hex');
      try {
        const res = await fetch(`${url}/api/submit-search`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': key },
          body: JSON.stringify(body),
        });
        r.statuses[res.status] = (r.statuses[res.status] ?? 0) + 1;
        const answer = await res.json();
        if (res.status === 200) r.acked.push(answer.id);
      } catch (err) {
        const code = err.cause?.code;
        if (code === 'ECONNREFUSED') r.refused += 1;
        else {
          r.resets.push(code ?? err.cause?.message ?? String(err));
          r.unanswered.push({ body, key });
        }
        await sleep(20);
      }
    }
  });
  return {
    r,
    stop: async () => {
      running = false;
      await Promise.all(loops);
      return r;
    },
  };
}

async function countStored(dbUrl, ids) {
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  try {
    const { rows } = await c.query(
      'select count(*)::int as n from website_lead l join consent_receipt r on r.lead_id = l.id where l.id = any($1::uuid[])',
      [ids],
    );
    return rows[0].n;
  } finally {
    await c.end();
  }
}

async function sigterm(trial) {
  const db = await freshDatabase();
  const s = startServer({ DATABASE_URL: db.url }, PORT + trial);
  await s.ready;
  const l = load(s.url);
  await sleep(3000);
  s.child.kill('SIGTERM');
  const code = await s.exited;
  await sleep(300);
  const r = await l.stop();
  const stored = await countStored(db.url, r.acked);
  await db.drop();
  return {
    trial,
    exit: code,
    acknowledged: r.acked.length,
    lost: r.acked.length - stored,
    503: r.statuses[503] ?? 0,
    other: Object.entries(r.statuses).filter(([k]) => k !== '200' && k !== '503'),
    reset: r.resets.length,
    resetCodes: [...new Set(r.resets)],
    refusedConnections: r.refused,
  };
}

async function kill9(trial) {
  const db = await freshDatabase();
  let s = startServer({ DATABASE_URL: db.url }, PORT + 30 + trial);
  await s.ready;
  const l = load(s.url);
  await sleep(3000);
  s.child.kill('SIGKILL');
  await s.exited;
  await sleep(300);
  const r = await l.stop();
  s = startServer({ DATABASE_URL: db.url }, PORT + 30 + trial);
  await s.ready;
  const retries = { 200: 0, 409: 0, other: 0 };
  for (const { body, key } of r.unanswered) {
    const res = await fetch(`${s.url}/api/submit-search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(body),
    });
    retries[res.status === 200 || res.status === 409 ? res.status : 'other'] += 1;
  }
  const stored = await countStored(db.url, r.acked);
  s.child.kill('SIGTERM');
  await s.exited;
  await db.drop();
  return {
    trial,
    acknowledged: r.acked.length,
    lost: r.acked.length - stored,
    unanswered: r.unanswered.length,
    retriedAnswered200: retries[200],
    retried409: retries[409],
    retriedOther: retries.other,
  };
}

async function pgkill() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'uf-probe-'));
  const env = { DATA_DIR: dataDir, DATABASE_URL: '' };
  const s = startServer(env, PORT + 40);
  await s.ready;
  const l = load(s.url, 8);
  await sleep(2000);
  const pid = Number(readFileSync(path.join(dataDir, 'postgres/postmaster.pid'), 'utf8').split('\n')[0]);
  process.kill(pid, 'SIGKILL');
  const killedAt = Date.now();
  const ackedAtKill = l.r.acked.length;
  while (l.r.acked.length < ackedAtKill + 100 && Date.now() - killedAt < 60_000) await sleep(50);
  const resumedAfterMs = Date.now() - killedAt;
  const r = await l.stop();
  // Every acknowledged lead is readable.
  let missing = 0;
  for (const id of r.acked) if ((await fetch(`${s.url}/api/leads/${id}`)).status !== 200) missing += 1;
  const health = (await fetch(`${s.url}/healthz`)).status;
  s.child.kill('SIGTERM');
  await s.exited;
  rmSync(dataDir, { recursive: true, force: true });
  return {
    acknowledged: r.acked.length,
    lost: missing,
    statuses: r.statuses,
    resets: r.resets.length,
    writesResumedAfterMs: resumedAfterMs,
    healthzAfter: health,
    logSaysStopped: s.output().includes('stopped unexpectedly'),
  };
}

function rawExchange(port, bytes, waitMs = 2000) {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    const done = () => {
      socket.destroy();
      resolve(answer);
    };
    socket.on('data', (d) => {
      answer += d;
    });
    socket.on('error', done);
    socket.on('close', done);
    socket.setTimeout(waitMs, done);
    socket.write(bytes);
  });
}

async function fuzz() {
  const db = await freshDatabase();
  const port = PORT + 45;
  const s = startServer({ DATABASE_URL: db.url }, port);
  await s.ready;
  const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'HEAD', 'PROPFIND', 'FOO'];
  const paths = [
    '/api/submit-search',
    '/api/trpc/lead.submit',
    '/api/trpc/lead.submit,lead.submit?batch=1',
    '/api/trpc/admin.leads.list?input=%7B',
    '/api/trpc/..%2f..%2fetc',
    '/%61pi/admin/leads/1',
    '//api//admin/backup',
    '/api/./admin/stats',
    '/API/ADMIN/LEADS',
    '/api/leads/%ZZ',
    '/api/leads/not-a-uuid/beneficiary',
    '/api/partner/leads',
    '/api/analytics/track',
    '/api/admin/login',
    '/api/admin/export?startDate=2026-13-45',
    '/api/csp-report',
    '/%00',
    '/api/%F0%9F%92%A9',
    `/api/${'a'.repeat(6000)}`,
    '/admin/leads',
  ];
  const bodies = [
    '',
    '{',
    'null',
    '[]',
    '{"a":'.repeat(200),
    JSON.stringify({ ...lead(), birthYear: { $gt: 1 } }),
    JSON.stringify({ ...lead(), firstName: 'x\u0000y' }),
    randomBytes(300).toString('binary'),
    JSON.stringify({ 0: lead() }),
    '{"username":"admin","password":' + '9'.repeat(400) + '}',
  ];
  const types = [
    'application/json',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data',
    '',
  ];
  const statuses = {};
  let fiveXX = 0;
  let n = 0;
  const jobs = [];
  for (const method of methods)
    for (const p of paths)
      for (let i = 0; i < 3; i++) {
        const body = bodies[(n + i) % bodies.length];
        const type = types[(n + i) % types.length];
        n += 1;
        jobs.push(
          `${method} ${p} HTTP/1.1\r\nHost: 127.0.0.1\r\n${type ? `Content-Type: ${type}\r\n` : ''}` +
            `Origin: ${i === 1 ? 'https://evil.example' : 'http://127.0.0.1'}\r\n` +
            `Content-Length: ${Buffer.byteLength(body, 'binary')}\r\nConnection: close\r\n\r\n${body}`,
        );
      }
  // Malformed HTTP itself.
  const broken = [
    'GARBAGE\r\n\r\n',
    'GET / HTTP/9.9\r\n\r\n',
    'POST /api/submit-search HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n',
    'POST /api/submit-search HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
    'POST /api/submit-search HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    'GET /\u0000 HTTP/1.1\r\nHost: x\r\n\r\n',
    'POST /api/trpc/lead.submit HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 999999999\r\n\r\n{}',
  ];
  for (let i = 0; i < 100; i++) jobs.push(broken[i % broken.length]);
  for (let i = 0; i < jobs.length; i += 20) {
    const answers = await Promise.all(
      jobs.slice(i, i + 20).map((j) => rawExchange(port, Buffer.from(j, 'binary'))),
    );
    for (const a of answers) {
      const status = /^HTTP\/1\.1 (\d{3})/.exec(a)?.[1] ?? 'none';
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (status.startsWith('5')) fiveXX += 1;
    }
  }
  const errorLines = s
    .output()
    .split('\n')
    .filter((l) => /"level":(50|60)/.test(l)).length;
  s.child.kill('SIGTERM');
  await s.exited;
  await db.drop();
  return { requests: jobs.length, fiveXX, statuses, errorLogLines: errorLines };
}

async function slow() {
  const db = await freshDatabase();
  const port = PORT + 50;
  const s = startServer({ DATABASE_URL: db.url }, port);
  await s.ready;
  const started = Date.now();
  const body = JSON.stringify(lead());
  const results = await Promise.all(
    Array.from(
      { length: 200 },
      () =>
        new Promise((resolve) => {
          const socket = connect(port, '127.0.0.1');
          let answer = '';
          let sent = 0;
          const timer = setInterval(() => {
            if (sent < body.length - 1) socket.write(body[sent++]);
          }, 1000);
          socket.on('connect', () =>
            socket.write(
              `POST /api/submit-search HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
            ),
          );
          socket.on('data', (d) => {
            answer += d;
          });
          const end = () => {
            clearInterval(timer);
            resolve({
              closedAfterS: (Date.now() - started) / 1000,
              status: /^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1],
            });
          };
          socket.on('close', end);
          socket.on('error', () => {});
          setTimeout(() => socket.destroy(), 120_000);
        }),
    ),
  );
  // Meanwhile the site still answers others.
  const healthy = (await fetch(`${s.url}/readyz`)).status;
  s.child.kill('SIGTERM');
  await s.exited;
  await db.drop();
  const times = results.map((r) => r.closedAfterS).sort((a, b) => a - b);
  const statuses = {};
  for (const r of results) statuses[r.status ?? 'none'] = (statuses[r.status ?? 'none'] ?? 0) + 1;
  return {
    connections: results.length,
    statuses,
    closedAfterSeconds: { min: times[0], median: times[100], max: times.at(-1) },
    readyzAfter: healthy,
  };
}

async function lock() {
  const db = await freshDatabase();
  const port = PORT + 60;
  const s = startServer({ DATABASE_URL: db.url }, port);
  await s.ready;
  const locker = new pg.Client({ connectionString: db.url });
  await locker.connect();
  await locker.query('begin');
  await locker.query('lock table website_lead in access exclusive mode');
  const lockedAt = Date.now();
  const answers = [];
  const readiness = {};
  const analytics = {};
  let running = true;
  const loops = Array.from({ length: 8 }, async () => {
    while (running) {
      const started = Date.now();
      const res = await fetch(`${s.url}/api/submit-search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(lead()),
      });
      await res.arrayBuffer();
      answers.push({
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        ms: Date.now() - started,
      });
    }
  });
  const watch = (async () => {
    while (running) {
      const ready = await fetch(`${s.url}/readyz`);
      const key = `${ready.status} ${(await ready.json()).status}`;
      readiness[key] = (readiness[key] ?? 0) + 1;
      const track = await fetch(`${s.url}/api/analytics/track`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent':
            'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36',
        },
        body: JSON.stringify({
          eventType: 'page_view',
          page: 'home',
          referrer: 'direct',
          sessionId: 'probe',
        }),
      });
      analytics[track.status] = (analytics[track.status] ?? 0) + 1;
      await sleep(500);
    }
  })();
  await sleep(30_000);
  await locker.query('rollback');
  const heldS = (Date.now() - lockedAt) / 1000;
  running = false;
  await Promise.all([...loops, watch]);
  await locker.end();
  const after = (await fetch(`${s.url}/readyz`)).status;
  s.child.kill('SIGTERM');
  await s.exited;
  await db.drop();
  const statuses = {};
  for (const a of answers) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
  const refused = answers.filter((a) => a.status === 503);
  return {
    lockHeldSeconds: heldS,
    budgetSeconds: 20,
    leadRequests: answers.length,
    statuses,
    slowest503Ms: Math.max(...refused.map((a) => a.ms)),
    without503RetryAfter: refused.filter((a) => !a.retryAfter).length,
    readyzDuringLock: readiness,
    analyticsDuringLock: analytics,
    readyzAfter: after,
  };
}

async function stopbacklog() {
  const { createServer } = await import('node:http');
  let received = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received += 1;
      setTimeout(() => res.end('ok'), 100);
    });
  });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hook = `http://127.0.0.1:${receiver.address().port}`;
  const db = await freshDatabase();
  const port = PORT + 70;
  const s = startServer(
    { DATABASE_URL: db.url, LOG_LEVEL: 'info', WEBHOOKS_ALLOW_PRIVATE_URLS: 'true' },
    port,
  );
  await s.ready;
  for (const path of ['/a', '/b']) {
    await runSql(
      db.url,
      `insert into webhook_endpoint (id, url, events, secret) values (gen_random_uuid(), '${hook}${path}', '{lead.created}', 'whsec_' || encode(decode(md5(random()::text) || md5(random()::text), 'hex'), 'base64'))`,
    );
  }
  const l = load(s.url, 16);
  while (l.r.acked.length < 1000) await sleep(100);
  await l.stop();
  while (received < 100) await sleep(50);
  s.child.kill('SIGTERM');
  const exit = await s.exited;
  receiver.close();
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  const { rows } = await c.query(
    `select (select count(*)::int from graphile_worker._private_jobs where locked_at is not null) as locked,
       (select count(*)::int from webhook_delivery where state = 'pending') as pending,
       (select count(*)::int from webhook_delivery d where d.state = 'pending' and d.id::text not in (
          select payload->>'id' from graphile_worker._private_jobs where payload->>'id' is not null)) as "pendingWithoutJob",
       (select count(*)::int from webhook_event) as outbox`,
  );
  await c.end();
  await db.drop();
  const lines = s.output().split('\n').filter(Boolean);
  const errors = lines.filter((line) => {
    try {
      return JSON.parse(line).level >= 50;
    } catch {
      return /error/i.test(line);
    }
  });
  return {
    exit,
    acknowledgedLeads: l.r.acked.length,
    deliveredBeforeStop: received,
    ...rows[0],
    errorLines: errors.length,
    errors: errors.slice(0, 5),
    warnLines: lines.filter((line) => line.includes('"level":40')).length,
  };
}

const part = process.argv[2] ?? 'all';
const out = {};
if (part === 'sigterm' || part === 'all')
  out.sigterm = [await sigterm(0), await sigterm(1), await sigterm(2)];
if (part === 'kill9' || part === 'all') out.kill9 = [await kill9(0), await kill9(1), await kill9(2)];
if (part === 'pgkill' || part === 'all') out.pgkill = await pgkill();
if (part === 'fuzz' || part === 'all') out.fuzz = await fuzz();
if (part === 'slow' || part === 'all') out.slow = await slow();
if (part === 'lock' || part === 'all') out.lock = await lock();
if (part === 'stopbacklog' || part === 'all') out.stopbacklog = await stopbacklog();
console.info(JSON.stringify(out, null, 2));
process.exit(0);
