// Admin leads at scale (issue 4). Starts the built server on a fresh PostgreSQL database, seeds leads with
// SQL, and measures through HTTP like the dashboard does:
//   100,000 leads: first page of the list, search by phone (within the first page's time), stats, bulk
//   delete of 50,000 (goal ≤ 1 s); "select all matching" (issue 26): 50,000 of 100,000 leads deleted by
//   DELETE /api/admin/leads/matching (goal ≤ 5 s end to end);
//   1,000,000 leads: CSV export rows/s and the server's peak RSS, next to psql running the very same
//   COPY statement in the same run (goal: ≥ half psql's rate, peak RSS ≤ 150 MB).
// Baselines are taken in this run: the same SQL sent straight to PostgreSQL, and psql for the export.
//
//   npm run bench admin-leads          (DATABASE_URL: a PostgreSQL admin URL; default local trust)
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  pg,
  root,
  runSql,
  SERVER_NODE_FLAGS,
  serverArgv,
  startProcess,
  stopProcess,
  withDatabase,
} from './support/processes.mjs';

const adminUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const ADMIN = { username: 'bench-admin', password: 'bench-password-123' };

const dbName = `uf_bench_leads_${Date.now().toString(36)}`;
const dbUrl = withDatabase(adminUrl, dbName);

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** Resident set size of a process in MB, from /proc (Linux). */
function rssMb(pid, field = 'VmRSS') {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`${field}:`));
    return line ? Number(line.replace(/\D+/g, '')) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Samples a process's RSS every 10 ms until stopped; returns the peak seen. */
function watchRss(pid) {
  let peak = rssMb(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMb(pid));
  }, 10);
  return () => {
    clearInterval(timer);
    return Math.max(peak, rssMb(pid));
  };
}

function request(base, method, url, { cookie, body } = {}) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = http.request(
      `${base}${url}`,
      {
        method,
        headers: {
          ...(cookie ? { cookie } : {}),
          ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}

/** Streams a download, counting bytes and lines without keeping them. */
function download(base, url, cookie) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    http
      .get(`${base}${url}`, { headers: { cookie } }, (res) => {
        let bytes = 0;
        let lines = 0;
        res.on('data', (chunk) => {
          bytes += chunk.length;
          for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode, bytes, lines, ms: performance.now() - started }),
        );
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** The server's export statement, from its source (bundled on the fly, so it is exactly the same). */
async function serverExportSql() {
  const serverDir = path.join(root, 'packages/server');
  const { build } = await import(
    pathToFileURL(createRequire(path.join(serverDir, 'package.json')).resolve('esbuild')).href
  );
  const outfile = path.join(serverDir, 'dist', 'bench-export-sql.mjs');
  const pkg = JSON.parse(readFileSync(path.join(serverDir, 'package.json'), 'utf8'));
  await build({
    stdin: {
      contents: `export { exportSql } from './src/leads/lead-export.service';
                 export { WEBSITE_LEADS } from './src/leads/admin-lead-tables';`,
      resolveDir: serverDir,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile,
    external: Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).filter(
      (d) => !d.startsWith('@uf/'),
    ),
    logLevel: 'warning',
  });
  const { exportSql, WEBSITE_LEADS } = await import(pathToFileURL(outfile).href);
  return exportSql(WEBSITE_LEADS, {}, 'America/New_York');
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];
const fmt = (ms) => `${ms.toFixed(1)} ms`;

async function timeIt(n, fn) {
  const times = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return { median: median(times), p95: p95(times) };
}

// Realistic spread: 50 states, 55 birth years, two thirds consenting, created over the last 120 days.
const SEED_SQL = (n) => `
  insert into website_lead (first_name, last_name, email, phone, street_address, zip_code, state,
    birth_month, birth_day, birth_year, consent_given, opt_in_date, opt_in_time, tcpa_compliant,
    lead_source, ip_address, created_at, updated_at)
  select 'First' || g, 'Last' || g, 'lead' || g || '@example.com', '(555) 123-' || lpad((g % 10000)::text, 4, '0'),
    g || ' Main Street', lpad((g % 99999)::text, 5, '0'),
    (array['AK','AL','AR','AZ','CA','CO','CT','DE','FL','GA','HI','IA','ID','IL','IN','KS','KY','LA','MA','MD',
           'ME','MI','MN','MO','MS','MT','NC','ND','NE','NH','NJ','NM','NV','NY','OH','OK','OR','PA','RI','SC',
           'SD','TN','TX','UT','VA','VT','WA','WI','WV','WY'])[1 + g % 50],
    1 + g % 12, 1 + g % 28, 1940 + g % 55, g % 3 <> 0, '2026-01-01', '12:00:00',
    case when g % 3 <> 0 then 'true' else 'false' end, 'website', '198.51.100.' || (g % 250),
    now() - make_interval(secs => (g % (120 * 86400))), now()
  from generate_series(1, ${n}) g`;

/** The built server on the bench database, signed in. */
async function startServer() {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // Started as `npm start` and the Docker image start it (ADR 013).
  const { child } = await startProcess(
    'server',
    serverArgv(),
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: dbUrl,
      LOG_LEVEL: 'warn',
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
    },
    () =>
      request(base, 'GET', '/readyz').then(
        (r) => r.status === 200,
        () => false,
      ),
  );
  const stop = () => stopProcess(child);
  try {
    const login = await request(base, 'POST', '/api/admin/login', { body: ADMIN });
    const cookie = String(login.headers['set-cookie']?.[0] ?? '').split(';')[0];
    if (login.status !== 200 || !cookie) throw new Error(`sign-in failed: ${login.status}`);
    return { pid: child.pid, base, cookie, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function main() {
  for (const tool of ['psql']) {
    const probe = spawn(tool, ['--version']);
    const ok = await new Promise((r) => probe.on('close', (c) => r(c === 0)).on('error', () => r(false)));
    if (!ok) throw new Error(`${tool} is needed for the export baseline`);
  }
  await runSql(adminUrl, `create database ${dbName}`);
  let server = await startServer();
  const db = new pg.Pool({ connectionString: dbUrl, max: 2 });
  try {
    let { base, cookie } = server;

    // ---- 100,000 leads ----
    await db.query(SEED_SQL(100_000));
    // Every real website lead has a consent receipt (deleted with it by a cascade): seed them too.
    const { rows: hasReceipts } = await db.query("select to_regclass('consent_receipt') is not null as ok");
    if (hasReceipts[0]?.ok) {
      await db.query(
        "insert into consent_text (hash, version, body) values ('bench', 'bench', 'bench consent text')",
      );
      await db.query(
        `insert into consent_receipt (id, lead_id, consent_given, consent_text_hash, consent_text_version, gpc, created_at)
         select gen_random_uuid(), id, consent_given, 'bench', 'bench', false, created_at from website_lead`,
      );
    }
    await db.query('analyze');
    console.info(`\n100,000 website leads${hasReceipts[0]?.ok ? ' (each with its consent receipt)' : ''}`);

    const listUrl = '/api/admin/leads?page=1&pageSize=50';
    const list = await timeIt(30, async () => {
      const r = await request(base, 'GET', listUrl, { cookie });
      if (r.status !== 200 || r.headers['x-total-count'] !== '100000') throw new Error(`list: ${r.status}`);
    });
    const filteredUrl = '/api/admin/leads?page=1&pageSize=50&state=CA&consentGiven=true&startDate=2026-01-01';
    const filtered = await timeIt(30, async () => {
      const r = await request(base, 'GET', filteredUrl, { cookie });
      if (r.status !== 200) throw new Error(`filtered list: ${r.status}`);
    });
    // Search by phone (issue 16): the dashboard's search box, a whole number typed the way people write
    // it; the seed gives each number to 10 leads. Served by the trigram index on the phone's digits.
    const searchUrl = `/api/admin/leads?page=1&pageSize=50&search=${encodeURIComponent('555-123-4242')}`;
    const searched = await timeIt(30, async () => {
      const r = await request(base, 'GET', searchUrl, { cookie });
      if (r.status !== 200 || r.headers['x-total-count'] !== '10')
        throw new Error(`search: ${r.status}, ${r.headers['x-total-count']} found`);
    });
    // Baseline: the page and the count as plain SQL on a direct connection.
    const listSql = await timeIt(30, () =>
      Promise.all([
        db.query(
          'select id, first_name, last_name, email from website_lead order by created_at desc, id limit 50',
        ),
        db.query('select count(*) from website_lead'),
      ]),
    );
    const stats = await timeIt(30, async () => {
      const r = await request(base, 'GET', '/api/admin/stats', { cookie });
      if (r.status !== 200) throw new Error(`stats: ${r.status}`);
    });
    const statsSql = await timeIt(30, () =>
      db.query(
        `select count(*), count(*) filter (where created_at >= date_trunc('day', now())),
           count(*) filter (where consent_given) from website_lead`,
      ),
    );
    console.info(`  first page (50 rows + total)      median ${fmt(list.median)}  p95 ${fmt(list.p95)}`);
    console.info(
      `  first page, 3 filters             median ${fmt(filtered.median)}  p95 ${fmt(filtered.p95)}`,
    );
    console.info(
      `    baseline: same page+count in SQL median ${fmt(listSql.median)}  (×${(list.median / listSql.median).toFixed(1)})`,
    );
    // The list's budget is the unfiltered first page of this same run: searching must not make the
    // dashboard slower than opening it.
    console.info(
      `  search by phone (10 of 100,000)   median ${fmt(searched.median)}  p95 ${fmt(searched.p95)}  budget: first page median ${fmt(list.median)} ${searched.median <= list.median ? 'MET' : 'MISSED'}`,
    );
    console.info(`  stats                             median ${fmt(stats.median)}  p95 ${fmt(stats.p95)}`);
    console.info(
      `    baseline: counts in SQL          median ${fmt(statsSql.median)}  (×${(stats.median / statsSql.median).toFixed(1)})`,
    );

    const { rows: idRows } = await db.query('select id from website_lead order by random() limit 50000');
    const ids = idRows.map((r) => r.id);
    // Baseline: the same one-statement delete straight to PostgreSQL, rolled back.
    const c = await db.connect();
    let sqlDeleteMs;
    try {
      await c.query('begin');
      const t = performance.now();
      await c.query('delete from website_lead where id = any($1::uuid[])', [ids]);
      sqlDeleteMs = performance.now() - t;
      await c.query('rollback');
    } finally {
      c.release();
    }
    const t0 = performance.now();
    const del = await request(base, 'DELETE', '/api/admin/leads', { cookie, body: { ids } });
    const deleteMs = performance.now() - t0;
    const deleted = JSON.parse(del.body.toString()).deletedCount;
    if (del.status !== 200 || deleted !== 50_000) throw new Error(`bulk delete: ${del.status} ${del.body}`);
    console.info(
      `  bulk delete of 50,000 (one call)  ${fmt(deleteMs)}  goal ≤ 1000 ms ${deleteMs <= 1000 ? 'MET' : 'MISSED'}`,
    );
    console.info(
      `    baseline: same DELETE in SQL     ${fmt(sqlDeleteMs)}  (×${(deleteMs / sqlDeleteMs).toFixed(1)})`,
    );

    // ---- Select all matching (issue 26): 50,000 of 100,000 leads deleted by filter in one call ----
    await db.query('truncate website_lead cascade');
    await db.query(SEED_SQL(100_000));
    // Half the leads in one state (the filter), the other half elsewhere (decoys that must stay).
    await db.query(
      `update website_lead w set state = case when x.n <= 50000 then 'WY' else 'CA' end
       from (select id, row_number() over (order by id) as n from website_lead) x where x.id = w.id`,
    );
    if (hasReceipts[0]?.ok) {
      await db.query(
        `insert into consent_receipt (id, lead_id, consent_given, consent_text_hash, consent_text_version, gpc, created_at)
         select gen_random_uuid(), id, consent_given, 'bench', 'bench', false, created_at from website_lead`,
      );
    }
    await db.query('vacuum analyze website_lead');
    const matchingBody = { filters: { state: 'WY' }, expectedCount: 50_000 };
    // Baseline: the same rows deleted by one statement straight to PostgreSQL, rolled back.
    const cm = await db.connect();
    let sqlMatchingMs;
    try {
      await cm.query('begin');
      const t = performance.now();
      await cm.query(`delete from website_lead where state = 'WY'`);
      sqlMatchingMs = performance.now() - t;
      await cm.query('rollback');
    } finally {
      cm.release();
    }
    const tm = performance.now();
    const matching = await request(base, 'DELETE', '/api/admin/leads/matching', {
      cookie,
      body: matchingBody,
    });
    const matchingMs = performance.now() - tm;
    const matchingDeleted = JSON.parse(matching.body.toString()).deletedCount;
    const { rows: left } = await db.query(
      `select count(*) filter (where state = 'WY')::int as wy, count(*)::int as total from website_lead`,
    );
    if (matching.status !== 200 || matchingDeleted !== 50_000 || left[0].wy !== 0 || left[0].total !== 50_000)
      throw new Error(`delete matching: ${matching.status} ${matching.body} left ${JSON.stringify(left[0])}`);
    console.info(
      `  delete 50,000 matching of 100,000 (DELETE /api/admin/leads/matching, end to end)  ${fmt(matchingMs)}  goal ≤ 5000 ms ${matchingMs <= 5000 ? 'MET' : 'MISSED'}`,
    );
    console.info(
      `    baseline: one DELETE … where state in SQL  ${fmt(sqlMatchingMs)}  (×${(matchingMs / sqlMatchingMs).toFixed(1)})`,
    );

    // ---- 1,000,000 leads ----
    await db.query('truncate website_lead cascade');
    await db.query(SEED_SQL(1_000_000));
    await db.query('vacuum analyze website_lead');
    console.info(
      `\n1,000,000 website leads: CSV export (server started with: node ${SERVER_NODE_FLAGS.join(' ')})`,
    );
    // A fresh server, so its memory figures are the export's and not left over from the steps above.
    await server.stop();
    server = await startServer();
    ({ base, cookie } = server);
    const startedRss = rssMb(server.pid);

    // Warm-up export; meanwhile read the exact COPY statement the server runs, for psql to run too.
    const capture = (async () => {
      for (let i = 0; i < 200; i++) {
        const { rows } = await db.query(
          "select query from pg_stat_activity where query ilike 'copy (select%' and datname = current_database()",
        );
        if (rows[0]) return rows[0].query;
        await new Promise((r) => setTimeout(r, 5));
      }
      throw new Error('could not see the export statement');
    })();
    const warm = await download(base, '/api/admin/export', cookie);
    const seen = await capture;
    // pg_stat_activity keeps only the first 1 KB of a statement: build the whole one with the server's
    // own function and check it is the statement PostgreSQL saw.
    const copySql = await serverExportSql();
    if (!copySql.startsWith(seen.slice(0, 1000))) throw new Error('export statement mismatch');
    if (warm.status !== 200 || warm.lines !== 1_000_001)
      throw new Error(`export: ${warm.status}, ${warm.lines} lines`);

    const warmRss = rssMb(server.pid);
    const runs = [];
    for (let i = 0; i < 3; i++) {
      const stop = watchRss(server.pid);
      const r = await download(base, '/api/admin/export', cookie);
      runs.push({ ...r, peak: stop() });
    }
    const best = runs.reduce((a, b) => (a.ms < b.ms ? a : b));
    const peak = Math.max(...runs.map((r) => r.peak));

    const psqlRuns = [];
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      const child = spawn('psql', ['-X', '-q', '-d', dbUrl, '-c', copySql], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const stop = watchRss(child.pid);
      let lines = 0;
      child.stdout.on('data', (chunk) => {
        for (let j = chunk.indexOf(10); j !== -1; j = chunk.indexOf(10, j + 1)) lines++;
      });
      const code = await new Promise((r) => child.on('close', r));
      if (code !== 0 || lines !== 1_000_001) throw new Error(`psql: exit ${code}, ${lines} lines`);
      psqlRuns.push({ ms: performance.now() - t, peak: stop() });
    }
    const psqlBest = psqlRuns.reduce((a, b) => (a.ms < b.ms ? a : b));
    const rate = 1_000_000 / (best.ms / 1000);
    const psqlRate = 1_000_000 / (psqlBest.ms / 1000);
    console.info(
      `  server export (HTTP)   ${fmt(best.ms)}  ${Math.round(rate).toLocaleString()} rows/s  ${(best.bytes / 1e6).toFixed(0)} MB`,
    );
    console.info(
      `  psql, same COPY        ${fmt(psqlBest.ms)}  ${Math.round(psqlRate).toLocaleString()} rows/s`,
    );
    console.info(
      `  ratio ${(rate / psqlRate).toFixed(2)} of psql's rate   goal ≥ 0.50 ${rate / psqlRate >= 0.5 ? 'MET' : 'MISSED'}`,
    );
    console.info(
      `  server RSS: ${startedRss.toFixed(0)} MB after start, ${warmRss.toFixed(0)} MB after one export, peak during 3 exports ${peak.toFixed(0)} MB   goal ≤ 150 MB ${peak <= 150 ? 'MET' : 'MISSED'}   (psql peak ${psqlBest.peak.toFixed(0)} MB)`,
    );
  } finally {
    await db.end().catch(() => {});
    await server.stop();
    await runSql(adminUrl, `drop database if exists ${dbName} with (force)`).catch(() => {});
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
