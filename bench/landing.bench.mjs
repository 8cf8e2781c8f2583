// The landing page as a phone on a mobile network sees it (issue 12): Lighthouse (mobile preset,
// simulated throttling) driving the system Chromium, 3 runs each, medians, against two same-run targets:
//   app       the built server itself on the embedded database (`npm start`), no proxy
//   static    the limit: the app's own prerendered / HTML with its stylesheet, scripts removed, gzip,
//             served by a minimal static server (a page that needs no JavaScript to paint)
// Also prints what Lighthouse saw transferred as scripts and stylesheets, and the build's landing figures
// (packages/web/report-bundle.mjs: JS before the first paint, of a page view and on the first
// interaction, CSS; gzip) against their limits. Lighthouse does not interact, and the app loads on the
// visitor's first interaction (ADR 053): so the bench also taps the page in Chromium under the same
// mobile conditions (150 ms round trips, 1.6 Mbit/s, CPU 4× slower; applied, not simulated) and prints
// how long the app then takes to be ready and what it transfers.
//
// With a landing experiment running (issue 48, ADR 075), each arm's page (through its `?arm=` preview:
// the same document a visitor in that arm is served, never counted) is audited the same way, alternating
// with the static page, and its LCP printed against the static page's (goal ≤ 1.2×), with the scripts
// and requests it made beside the control's (assignment must add none).
//
//   npm run bench landing [-- --runs 3]     (CHROME_PATH, default /usr/bin/chromium)
//   npm run bench landing -- --only arms    (the arms' pass alone)

import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { LIMITS_KB, landingBundle } from '../packages/web/report-bundle.mjs';
import { option } from './support/bodies.mjs';
import { printTable, readyAt, root, serverArgv, startProcess, stopProcess } from './support/processes.mjs';
import { collected, instrument, summarise, typedVisit } from './support/typed-visit.mjs';

const RUNS = Number(option('runs', '3'));
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const dist = path.join(root, 'packages/web/dist');

const TYPES = { '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.html': 'text/html' };

/** The same bytes the app serves, from memory, pre-compressed, no framework. */
function startStatic(indexHtml) {
  const index = { raw: Buffer.from(indexHtml), gz: gzipSync(indexHtml, { level: 9 }) };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    if (url.pathname === '/' || !path.extname(url.pathname)) {
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        ...(gzip ? { 'content-encoding': 'gzip' } : {}),
      });
      return res.end(gzip ? index.gz : index.raw);
    }
    const file = path.join(dist, url.pathname);
    if (!file.startsWith(dist) || !existsSync(file)) {
      res.writeHead(404);
      return res.end();
    }
    const type = TYPES[path.extname(file)] ?? 'application/octet-stream';
    if (gzip && existsSync(`${file}.gz`)) {
      res.writeHead(200, {
        'content-type': type,
        'content-encoding': 'gzip',
        'cache-control': 'public, max-age=31536000',
      });
      return res.end(readFileSync(`${file}.gz`));
    }
    res.writeHead(200, { 'content-type': type });
    res.end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

const transferred = (summary, type) =>
  summary?.details?.items?.find((item) => item.resourceType === type)?.transferSize ?? 0;

async function audit(chrome, url) {
  const result = await lighthouse(url, {
    port: chrome.port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility'],
  });
  const a = result.lhr.audits;
  return {
    performance: Math.round((result.lhr.categories.performance.score ?? 0) * 100),
    accessibility: Math.round((result.lhr.categories.accessibility.score ?? 0) * 100),
    fcp: a['first-contentful-paint'].numericValue,
    lcp: a['largest-contentful-paint'].numericValue,
    tbt: a['total-blocking-time'].numericValue,
    cls: a['cumulative-layout-shift'].numericValue,
    bytes: a['total-byte-weight'].numericValue,
    jsBytes: transferred(a['resource-summary'], 'script'),
    cssBytes: transferred(a['resource-summary'], 'stylesheet'),
    lcpElement: firstNodeSnippet(a['lcp-breakdown-insight']?.details) ?? '?',
  };
}

/** The first DOM node an audit's details name (Lighthouse 13 puts the LCP element in the LCP breakdown). */
function firstNodeSnippet(details) {
  if (!details || typeof details !== 'object') return undefined;
  if (details.type === 'node' && details.snippet) return details.snippet;
  for (const value of Object.values(details)) {
    const found = Array.isArray(value)
      ? value.map(firstNodeSnippet).find(Boolean)
      : typeof value === 'object'
        ? firstNodeSnippet(value)
        : undefined;
    if (found) return found;
  }
  return undefined;
}

function summary(label, runs) {
  const pick = (k) => median(runs.map((r) => r[k]));
  return {
    target: label,
    performance: pick('performance'),
    accessibility: pick('accessibility'),
    'FCP s': (pick('fcp') / 1000).toFixed(2),
    'LCP s': (pick('lcp') / 1000).toFixed(2),
    'TBT ms': Math.round(pick('tbt')),
    CLS: pick('cls').toFixed(3),
    'transferred KiB': Math.round(pick('bytes') / 1024),
    'JS KiB': Math.round(pick('jsBytes') / 1024),
    'CSS KiB': Math.round(pick('cssBytes') / 1024),
  };
}

const CHROME_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** A phone on a mobile network (150 ms round trips, 1.6 Mbit/s, CPU 4× slower), applied, not simulated. */
async function throttledPhone(browser) {
  const context = await browser.newContext({
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 150,
    downloadThroughput: (1.6 * 1024 * 1024) / 8,
    uploadThroughput: (750 * 1024) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  return { context, page, cdp };
}

/** One visit on a throttled phone: load, read for a second, first tap; the app's time to ready and bytes. */
async function firstInteraction(browser, url) {
  const { context, page, cdp } = await throttledPhone(browser);
  let bytes = 0;
  let counting = false;
  cdp.on('Network.loadingFinished', (e) => {
    if (counting) bytes += e.encodedDataLength;
  });
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForTimeout(1000);
  counting = true;
  const tappedAt = Date.now();
  await page.touchscreen.tap(200, 400);
  await page.waitForSelector('html[data-app-ready="true"]', { state: 'attached', timeout: 60_000 });
  const readyMs = Date.now() - tappedAt;
  await page.waitForTimeout(500); // what the app requests once it runs
  await context.close();
  return { readyMs, bytes };
}

/**
 * A visitor on a throttled phone who fills the form and taps "Search Now" before the app has started
 * (ADR 057): the tap's duration (Event Timing: from the tap to the frame showing the button busy), and
 * that the lead then went through (the beneficiary dialog, or the server's beneficiary step).
 */
async function tapBeforeApp(browser, url, run) {
  const { context, page } = await throttledPhone(browser);
  // The app's last chunk waits until the tap has been seen (the visitor was quicker than it).
  let releaseApp = () => {};
  const held = new Promise((resolve) => {
    releaseApp = resolve;
  });
  await page.route(/\/assets\/app-start-[^/]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.addInitScript(instrument);
  await page.goto(url, { waitUntil: 'load' });
  const field = (label) => page.getByLabel(label, { exact: true });
  // Whole values (no key-by-key typing: the app would have time to arrive); the tap follows at once.
  await field('First Name').fill('Bench');
  await field('Last Name').fill('Tap');
  await field('Street Address').fill('1 Main St');
  await field('ZIP Code').fill('10001');
  await field('Email Address').fill(`bench.tap.${Date.now()}.${run}@example.com`);
  await field('Phone Number').fill('(555) 123-4567');
  await field('Birth Month').selectOption('5');
  await field('Birth Day').selectOption('17');
  await field('Birth Year').selectOption('1970');
  await page.getByRole('checkbox').check();
  const appReadyBeforeTap = await page.evaluate(() => document.documentElement.dataset.appReady === 'true');
  await page.getByRole('button', { name: 'Search Now' }).tap();
  await page.waitForFunction(() => /** @type {any} */ (window).__perf.busyAt !== undefined, null, {
    timeout: 30_000,
  });
  await page.waitForTimeout(300); // the tap's Event Timing entry is delivered after its frame
  const perf = await page.evaluate(collected);
  releaseApp();
  await page
    .getByRole('heading', { name: 'Who is your beneficiary?' })
    .or(page.getByRole('dialog', { name: 'Who is your beneficiary?' }))
    .first()
    .waitFor({ timeout: 60_000 });
  await context.close();
  if (appReadyBeforeTap) throw new Error('tapBeforeApp: the app ran before the tap');
  return summarise(perf).tap;
}

/** Per position, the median over the visits (each visit types the same keys). */
function medianKeystrokes(visits) {
  return visits[0].keystrokes.map((k, i) => ({
    field: k.field,
    key: k.key,
    ms: median(visits.map((v) => v.keystrokes[i]?.ms ?? 0)),
  }));
}

/** Issue 36's figures of a set of typed visits: medians of three, and the keystrokes per field. */
function printTyped(label, visits) {
  const pick = (f) => Math.round(median(visits.map(f)));
  const keys = medianKeystrokes(visits);
  console.info(
    `${label}: INP ${pick((v) => v.inp)} ms · worst interaction ${pick((v) => v.worst.ms)} ms ` +
      `(runs ${visits.map((v) => `${Math.round(v.worst.ms)} ${v.worst.name}${v.worst.on ? ` (${v.worst.on})` : ''} at ${(v.worst.at / 1000).toFixed(1)} s`).join(' / ')}) · ` +
      `longest task ${pick((v) => v.longestTask)} ms (runs ${visits.map((v) => Math.round(v.longestTask)).join(' / ')}), ` +
      `tasks > 50 ms ${pick((v) => v.longTasks.length)} · keystrokes ≤ ${Math.max(...keys.map((k) => k.ms))} ms` +
      (visits[0].tap
        ? ` · tap on "Search Now" → busy ${pick((v) => v.tap?.ms ?? Number.NaN)} ms (runs ${visits.map((v) => Math.round(v.tap?.ms ?? Number.NaN)).join(' / ')})`
        : ''),
  );
  const fields = [...new Set(keys.map((k) => k.field))];
  for (const name of fields)
    console.info(
      `    ${name.padEnd(14)} ${keys
        .filter((k) => k.field === name)
        .map((k) => Math.round(k.ms))
        .join(' ')}`,
    );
}

/** Where the long frames' time went (Long Animation Frames' script attribution), across the visits. */
function printLongFrames(visits) {
  const bySource = new Map();
  for (const v of visits)
    for (const f of v.frames)
      for (const s of f.scripts) {
        const key = `${s.invokerType} ${s.source || s.invoker}`;
        const seen = bySource.get(key) ?? { total: 0, max: 0, count: 0 };
        seen.total += s.duration;
        seen.max = Math.max(seen.max, s.duration);
        seen.count += 1;
        bySource.set(key, seen);
      }
  const top = [...bySource.entries()].sort((a, b) => b[1].max - a[1].max).slice(0, 8);
  if (top.length === 0) return;
  console.info('  scripts of the frames over 50 ms (all visits; longest first):');
  for (const [key, { max, count }] of top)
    console.info(`    ${Math.round(max)} ms max, ${count}×  ${key.slice(0, 110)}`);
}

/** Signs in as the bench's admin and makes a two-arm headline experiment (a draft; `start` starts it). */
async function createExperiment(app) {
  const headers = { 'content-type': 'application/json', origin: app.replace(/\/$/, '') };
  const login = await fetch(`${app}api/admin/login`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ username: 'bench', password: 'bench-password-48' }),
  });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  const created = await fetch(`${app}api/admin/experiments`, {
    method: 'POST',
    headers: { ...headers, cookie },
    body: JSON.stringify({
      name: 'Bench headline',
      arms: [
        { key: 'control', name: 'Control', weight: 50, content: {} },
        {
          key: 'owed',
          name: 'Owed',
          weight: 50,
          content: {
            eyebrow: 'Free, official sources',
            headline: 'Your State May Be Holding Money That Belongs To You',
            heroButton: 'Check What You Are Owed',
            formFirst: false,
          },
        },
      ],
    }),
  });
  if (created.status !== 201) throw new Error(`experiment: ${created.status} ${await created.text()}`);
  const { id } = await created.json();
  const start = async () => {
    const started = await fetch(`${app}api/admin/experiments/${id}/start`, {
      method: 'POST',
      headers: { ...headers, cookie },
    });
    if (!started.ok) throw new Error(`start: ${started.status}`);
  };
  return { id, start };
}

function printArms(runsByTarget, loadAtStart) {
  const load = `load average ${loadAtStart.toFixed(1)} → ${os.loadavg()[0].toFixed(1)}`;
  const rows = [...runsByTarget].map(([label, runs]) => summary(label, runs));
  console.info(`\nLighthouse per arm, mobile preset, simulated throttling, median of ${RUNS} (${load}):`);
  printTable(rows);
  const base = Number(rows[0]['LCP s']);
  for (const row of rows.slice(1))
    console.info(`LCP ${row.target} / static: ${(Number(row['LCP s']) / base).toFixed(2)} (goal ≤ 1.2)`);
}

async function main() {
  // --only interactions: the typed visits and taps alone, without Lighthouse (quicker, while tuning).
  const only = option('only', 'all');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'uf-bench-landing-'));
  chmodSync(dataDir, 0o711); // reachable by the embedded PostgreSQL's unprivileged user when run as root
  const port = 21_000 + Math.floor(Math.random() * 10_000);
  const { child } = await startProcess(
    'server',
    serverArgv(),
    {
      DATABASE_URL: '',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      // The arms' pass signs in to start an experiment.
      ADMIN_USERNAME: 'bench',
      ADMIN_PASSWORD: 'bench-password-48',
    },
    readyAt(port),
  );
  const app = `http://127.0.0.1:${port}/`;
  const indexHtml = await (await fetch(app, { headers: { 'accept-encoding': 'identity' } })).text();
  const withoutScripts = indexHtml
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '')
    .replace(/<link[^>]+rel="modulepreload"[^>]*>/g, '');
  const staticServer = await startStatic(withoutScripts);
  const staticUrl = `http://127.0.0.1:${staticServer.address().port}/`;
  const loadAtStart = os.loadavg()[0];
  const appRuns = [];
  const staticRuns = [];
  const tapRuns = [];
  const earlyTaps = [];
  const typedApp = [];
  const typedStatic = [];
  const armRuns = new Map();
  try {
    if (only === 'arms') {
      const { id, start } = await createExperiment(app);
      const targets = [
        ['static: prerendered HTML + CSS, no JS, gzip', staticUrl],
        ['app, no experiment', app],
        ['arm control (its preview)', `${app}?arm=control&experiment=${id}`],
        ['arm owed (its preview)', `${app}?arm=owed&experiment=${id}`],
      ];
      const chrome = await chromeLauncher.launch({
        chromePath: CHROME_PATH,
        chromeFlags: ['--headless=new', ...CHROME_FLAGS],
      });
      try {
        // Alternating, so load on the machine hits every target alike.
        for (let i = 0; i < RUNS; i++)
          for (const [label, url] of targets)
            armRuns.set(label, [...(armRuns.get(label) ?? []), await audit(chrome, url)]);
        // Then running: / is served in whichever arm Lighthouse's address and user agent hash to.
        await start();
        for (let i = 0; i < RUNS; i++)
          armRuns.set('/ with the experiment running', [
            ...(armRuns.get('/ with the experiment running') ?? []),
            await audit(chrome, app),
          ]);
      } finally {
        await chrome.kill();
      }
      return printArms(armRuns, loadAtStart);
    }
    if (only === 'all') {
      const chrome = await chromeLauncher.launch({
        chromePath: CHROME_PATH,
        chromeFlags: ['--headless=new', ...CHROME_FLAGS],
      });
      try {
        // Alternating, so load on the machine hits both alike.
        for (let i = 0; i < RUNS; i++) {
          staticRuns.push(await audit(chrome, staticUrl));
          appRuns.push(await audit(chrome, app));
        }
      } finally {
        await chrome.kill();
      }
    }
    const browser = await chromium.launch({
      executablePath: CHROME_PATH,
      headless: true,
      args: CHROME_FLAGS,
    });
    const phone = () => throttledPhone(browser);
    try {
      // Alternating again: the static page typed the same way is this machine's floor for each figure.
      for (let i = 0; i < RUNS; i++) {
        typedStatic.push(await typedVisit(phone, staticUrl, i, { submit: false }));
        typedApp.push(await typedVisit(phone, app, i, { submit: true }));
      }
      for (let i = 0; i < RUNS; i++) earlyTaps.push(await tapBeforeApp(browser, app, i));
      if (only === 'all') for (let i = 0; i < RUNS; i++) tapRuns.push(await firstInteraction(browser, app));
    } finally {
      await browser.close();
    }
  } finally {
    staticServer.close();
    await stopProcess(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
  const load = `load average ${loadAtStart.toFixed(1)} → ${os.loadavg()[0].toFixed(1)}`;
  if (only === 'all') {
    const rows = [
      summary('static: prerendered HTML + CSS, no JS, gzip', staticRuns),
      summary('app (npm start)', appRuns),
    ];
    console.info(`\nLighthouse, mobile preset, simulated throttling, median of ${RUNS} (${load}):`);
    printTable(rows);
    const [base, appRow] = rows;
    console.info(
      `LCP app / static: ${(Number(appRow['LCP s']) / Number(base['LCP s'])).toFixed(2)} (goal ≤ 1.2)`,
    );
    console.info(
      `LCP element: static ${staticRuns[0]?.lcpElement.slice(0, 120)} · app ${appRuns[0]?.lcpElement.slice(0, 120)}`,
    );
  }
  console.info(
    `\nA visitor who taps into the form at once and types it key by key (throttled phone: 150 ms round trips, ` +
      `1.6 Mbit/s, CPU 4× slower; Event Timing and Long Tasks in the page; median of ${RUNS}; ${load}; ` +
      'goals: INP, every keystroke and the tap ≤ 100 ms, no task > 50 ms):',
  );
  printTyped('  static (same HTML, no JS; typing only)', typedStatic);
  printTyped('  app, to Congratulations', typedApp);
  printLongFrames(typedApp);
  const early = earlyTaps.filter(Boolean);
  console.info(
    `  tap on "Search Now" before the app runs (its last chunk held back) → busy: ` +
      `${Math.round(median(early.map((t) => t.ms)))} ms (runs ${early.map((t) => Math.round(t.ms)).join(' / ')}; goal ≤ 100 ms; the lead went through every time)`,
  );
  if (only === 'all')
    console.info(
      `first tap → app ready (throttled phone, median of ${RUNS}): ${(median(tapRuns.map((r) => r.readyMs)) / 1000).toFixed(2)} s ` +
        `(runs ${tapRuns.map((r) => (r.readyMs / 1000).toFixed(2)).join(' / ')}), ` +
        `${Math.round(median(tapRuns.map((r) => r.bytes)) / 1024)} KiB transferred after the tap`,
    );
  const { figures, problems } = landingBundle();
  const kb = (name) => `${figures[name].kb.toFixed(1)} KB (limit ${LIMITS_KB[name]})`;
  console.info(
    `landing build (gzip): JS before the first paint ${kb('criticalJs')} · CSS ${kb('css')} · ` +
      `JS of a page view ${kb('pageViewJs')} · JS on the first interaction ${kb('interactionJs')}` +
      (problems.length ? `  OVER: ${problems.join('; ')}` : ''),
  );
}

await main();
