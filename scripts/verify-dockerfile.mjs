#!/usr/bin/env node
// Runs the Dockerfile's build and start steps natively — same commands, same order — in a temporary
// directory, then checks that the result answers the image's own HEALTHCHECK (/readyz), serves the web
// app and stops cleanly on SIGTERM. This catches a broken install, build or start step without a
// Docker engine. Part of `npm test` (packages/server/test/deploy/dockerfile.test.ts).
//
//   node scripts/verify-dockerfile.mjs [--keep] [--context <dir>]
//
// The build context is the repository's working tree (as `docker build .`), or --context <dir>, e.g. a
// clean `git archive HEAD` export while other work is in progress in the checkout.
// Each stage gets its own folder standing in for the container's `/`: WORKDIR, COPY and ENV paths are
// mapped into it; RUN steps run with `sh -c` in the mapped WORKDIR (they must not use absolute paths).
// A step preceded by `# native: skip (<tools>)` only changes the image's operating system: it is
// skipped and the named tools must exist on this machine instead. With DATABASE_URL set, the started
// server gets a fresh database on that PostgreSQL (dropped afterwards); otherwise it runs embedded.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const keep = process.argv.includes('--keep');
const contextArg = process.argv.indexOf('--context');
const context = contextArg > 0 ? path.resolve(process.argv[contextArg + 1] ?? '.') : root;
const started = Date.now();
const log = (line) => console.info(`[verify-dockerfile] ${line}`);

class VerifyError extends Error {}
const fail = (message) => {
  throw new VerifyError(message);
};

// ---------------------------------------------------------------------------------------------------
// Parsing

/** Instructions with their arguments; continuation lines joined, comments dropped, directives kept. */
function parseDockerfile(text) {
  const instructions = [];
  let pendingDirective = null;
  let current = null;
  for (const rawLine of text.split('\n')) {
    const line = rawLine.replace(/\r$/, '');
    const trimmed = line.trim();
    if (current === null) {
      if (trimmed === '') continue;
      if (trimmed.startsWith('#')) {
        const m = /^#\s*native:\s*skip\s*\(([^)]*)\)/.exec(trimmed);
        if (m) pendingDirective = { skip: true, tools: (m[1] ?? '').split(/[\s,]+/).filter(Boolean) };
        continue;
      }
      current = { text: '', directive: pendingDirective };
      pendingDirective = null;
    } else if (trimmed.startsWith('#')) {
      continue; // comments inside a continued instruction are dropped, as Docker does
    }
    if (trimmed.endsWith('\\')) {
      current.text += `${trimmed.slice(0, -1)} `;
      continue;
    }
    current.text += trimmed;
    const m = /^(\S+)\s*(.*)$/s.exec(current.text);
    instructions.push({ keyword: (m?.[1] ?? '').toUpperCase(), args: (m?.[2] ?? '').trim(), ...current });
    current = null;
  }
  if (current) fail('the Dockerfile ends inside a continued line');
  return instructions;
}

function expand(value, vars) {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (_m, a, b) => {
    const name = a ?? b;
    return vars[name] ?? '';
  });
}

/** `--flag=value` options at the start of an instruction, then the rest. */
function takeFlags(args) {
  const flags = {};
  let rest = args;
  for (;;) {
    const m = /^--([a-z-]+)=(\S+)\s*/.exec(rest);
    if (!m) break;
    flags[m[1]] = m[2];
    rest = rest.slice(m[0].length);
  }
  return { flags, rest };
}

function parseCommand(args) {
  if (args.startsWith('[')) {
    try {
      const argv = JSON.parse(args);
      if (Array.isArray(argv) && argv.every((a) => typeof a === 'string')) return { exec: argv };
    } catch {
      // fall through: Docker treats malformed JSON as shell form
    }
  }
  return { shell: args };
}

function parseKeyValues(args) {
  const out = {};
  const re = /([A-Za-z_][A-Za-z0-9_]*)=("(?:[^"\\]|\\.)*"|\S*)/g;
  if (!/^[A-Za-z_][A-Za-z0-9_]*=/.test(args)) {
    const m = /^(\S+)\s+(.*)$/.exec(args); // legacy `ENV KEY value`
    if (m?.[1]) out[m[1]] = m[2] ?? '';
    return out;
  }
  for (const m of args.matchAll(re)) {
    const v = m[2] ?? '';
    out[m[1]] = v.startsWith('"') ? JSON.parse(v) : v;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Build context (.dockerignore)

function globToRegExp(pattern) {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*') {
      if (pattern[i + 1] === '*') {
        // `**/` matches zero or more whole directories; a trailing `**` matches everything below.
        if (pattern[i + 2] === '/') {
          re += '(?:.*/)?';
          i += 2;
        } else {
          re += '.*';
          i += 1;
        }
      } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

function loadIgnore(contextDir) {
  const file = path.join(contextDir, '.dockerignore');
  const rules = existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith('#'))
        .map((l) => {
          const negate = l.startsWith('!');
          const p = path.posix.normalize((negate ? l.slice(1) : l).replace(/^\/+/, ''));
          return { negate, re: globToRegExp(p) };
        })
    : [];
  // Last matching rule wins; a path is also excluded when one of its parent folders is.
  const matches = (rel) => {
    let ignored = false;
    for (const r of rules) if (r.re.test(rel)) ignored = !r.negate;
    return ignored;
  };
  return (rel) => {
    const parts = rel.split('/');
    for (let i = 1; i <= parts.length; i++) if (matches(parts.slice(0, i).join('/'))) return true;
    return false;
  };
}

/** Copies a context path (file or folder) to `dest`, leaving out what .dockerignore excludes. */
function copyFromContext(contextDir, isIgnored, rel, dest) {
  const src = path.join(contextDir, rel);
  if (isIgnored(rel)) fail(`COPY ${rel}: excluded by .dockerignore`);
  if (!existsSync(src)) fail(`COPY ${rel}: not in the build context`);
  if (statSync(src).isDirectory()) {
    mkdirSync(dest, { recursive: true });
    for (const entry of readdirSync(src)) {
      const childRel = rel === '.' ? entry : `${rel}/${entry}`;
      if (!isIgnored(childRel)) copyFromContext(contextDir, isIgnored, childRel, path.join(dest, entry));
    }
  } else {
    mkdirSync(path.dirname(dest), { recursive: true });
    cpSync(src, dest);
  }
}

// ---------------------------------------------------------------------------------------------------
// Running

function hostEnv() {
  // What a build container starts with: a PATH (this Node first), HOME and locale — plus this
  // machine's network settings (proxies, extra CA certificates), which a Docker build gets from the
  // daemon; without them every registry request here waits for a TLS failure.
  const keepVars = [
    'HOME',
    'TMPDIR',
    'LANG',
    'NODE_EXTRA_CA_CERTS',
    'SSL_CERT_FILE',
    'SSL_CERT_DIR',
    ...['http_proxy', 'https_proxy', 'no_proxy'].flatMap((v) => [v, v.toUpperCase()]),
  ];
  const env = Object.fromEntries(keepVars.filter((k) => process.env[k]).map((k) => [k, process.env[k]]));
  env.PATH = `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`;
  return env;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
    srv.on('error', reject);
  });
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

function parseDuration(value, fallbackMs) {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)$/.exec(value ?? '');
  if (!m) return fallbackMs;
  return Number(m[1]) * { ms: 1, s: 1000, m: 60_000 }[m[2]];
}

async function createDatabase(adminUrl) {
  const { default: pg } = await import('pg');
  const name = `uf_verify_${randomBytes(6).toString('hex')}`;
  const run = async (sql) => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await run(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists ${name} with (force)`) };
}

function readBootstrapPins() {
  const text = readFileSync(path.join(context, 'scripts/bootstrap.mjs'), 'utf8');
  return {
    node: /const NODE_VERSION = '([^']+)'/.exec(text)?.[1],
    pnpm: /const PNPM_VERSION = '([^']+)'/.exec(text)?.[1],
  };
}

async function main() {
  const dockerfile = readFileSync(path.join(context, 'Dockerfile'), 'utf8');
  const instructions = parseDockerfile(dockerfile);
  const isIgnored = loadIgnore(context);
  const work = mkdtempSync(path.join(os.tmpdir(), 'uf-verify-dockerfile-'));
  log(`working in ${work}`);

  const globalArgs = {};
  const stages = [];
  let stage = null;
  let skipped = 0;
  const cleanups = [() => (keep ? log(`kept ${work}`) : rmSync(work, { recursive: true, force: true }))];

  try {
    // --- static checks: what the image promises, before spending time on the build
    const pins = readBootstrapPins();
    const froms = instructions.filter((i) => i.keyword === 'FROM');
    if (froms.length < 2) fail('expected a multi-stage build (a build stage and a runtime stage)');
    const nodeImageArg = instructions.find((i) => i.keyword === 'ARG' && i.args.startsWith('NODE_IMAGE='));
    const nodeImage = nodeImageArg?.args.split('=')[1] ?? '';
    if (!nodeImage.startsWith(`node:${pins.node}-`)) {
      fail(`NODE_IMAGE ${nodeImage} does not match Node ${pins.node} of scripts/bootstrap.mjs`);
    }
    const pnpmArg = instructions.find((i) => i.keyword === 'ARG' && i.args.startsWith('PNPM_VERSION='));
    if (pnpmArg?.args.split('=')[1] !== pins.pnpm) {
      fail(`PNPM_VERSION does not match pnpm ${pins.pnpm} of scripts/bootstrap.mjs`);
    }
    for (const pkg of readdirSync(path.join(context, 'packages'))) {
      if (!existsSync(path.join(context, 'packages', pkg, 'package.json'))) continue;
      const copied = instructions.some(
        (i) => i.keyword === 'COPY' && i.args.includes(`packages/${pkg}/package.json`),
      );
      if (!copied) fail(`packages/${pkg}/package.json is not copied before the install step`);
    }
    const secretLike = /(PASSWORD|SECRET|TOKEN|DATABASE_URL|PRIVATE|API_KEY)/i;
    for (const i of instructions.filter((x) => x.keyword === 'ENV' || x.keyword === 'ARG')) {
      for (const key of Object.keys(parseKeyValues(i.args.includes('=') ? i.args : `${i.args}=`))) {
        if (secretLike.test(key))
          fail(`${i.keyword} ${key}: secrets must come from the environment at run time`);
      }
    }

    // --- the build, step by step
    for (const ins of instructions) {
      const vars = { ...globalArgs, ...(stage?.args ?? {}), ...(stage?.env ?? {}) };
      const label = `${ins.keyword} ${ins.args.length > 90 ? `${ins.args.slice(0, 87)}...` : ins.args}`;
      if (ins.directive?.skip) {
        for (const tool of ins.directive.tools) {
          const found = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).status === 0;
          if (!found) fail(`skipped step needs '${tool}' on this machine: ${label}`);
        }
        log(
          `${stage?.name ?? '-'}: skipped (image OS only; host has ${ins.directive.tools.join(', ') || 'nothing to check'}): ${label}`,
        );
        skipped += 1;
        continue;
      }
      switch (ins.keyword) {
        case 'ARG': {
          const [name, ...def] = ins.args.split('=');
          const value = def.length ? expand(def.join('='), vars) : '';
          if (stage) stage.args[name] = value;
          else globalArgs[name] = value;
          break;
        }
        case 'FROM': {
          const m = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(ins.args);
          const image = expand(m?.[1] ?? '', globalArgs);
          if (stages.some((s) => s.name === image)) fail(`FROM <stage> is not supported here: ${image}`);
          const name = m?.[2] ?? `stage${stages.length}`;
          stage = { name, image, root: path.join(work, name), args: {}, env: {}, workdir: '/' };
          mkdirSync(stage.root, { recursive: true });
          stages.push(stage);
          log(`${name}: FROM ${image}`);
          break;
        }
        case 'WORKDIR': {
          const dir = expand(ins.args, vars);
          stage.workdir = path.posix.resolve(stage.workdir, dir);
          mkdirSync(path.join(stage.root, stage.workdir), { recursive: true });
          break;
        }
        case 'ENV':
          for (const [k, v] of Object.entries(parseKeyValues(ins.args))) stage.env[k] = expand(v, vars);
          break;
        case 'COPY': {
          const { flags, rest } = takeFlags(ins.args);
          if (rest.startsWith('[')) fail(`COPY in JSON form is not supported here: ${label}`);
          const parts = rest.split(/\s+/).map((p) => expand(p, vars));
          const destRaw = parts.pop() ?? '';
          const sources = parts;
          if (sources.some((s) => /[*?[]/.test(s)))
            fail(`COPY with wildcards is not supported here: ${label}`);
          const destAbs = path.posix.resolve(stage.workdir, destRaw);
          const destIsDir = destRaw.endsWith('/') || sources.length > 1;
          const from = flags.from ? stages.find((s) => s.name === flags.from) : null;
          if (flags.from && !from) fail(`COPY --from=${flags.from}: no such stage`);
          for (const src of sources) {
            const target = path.join(
              stage.root,
              destIsDir ? path.posix.join(destAbs, path.posix.basename(src)) : destAbs,
            );
            if (from) {
              const srcPath = path.join(from.root, path.posix.resolve(from.workdir, src));
              if (!existsSync(srcPath)) fail(`COPY --from=${from.name} ${src}: not found in that stage`);
              const isDir = statSync(srcPath).isDirectory();
              const to = isDir ? path.join(stage.root, destAbs) : target;
              mkdirSync(isDir ? to : path.dirname(to), { recursive: true });
              cpSync(srcPath, to, { recursive: true, verbatimSymlinks: true });
            } else {
              const rel = path.posix.normalize(src);
              if (!existsSync(path.join(context, rel))) fail(`COPY ${src}: not in the build context`);
              const isDir = statSync(path.join(context, rel)).isDirectory();
              copyFromContext(context, isIgnored, rel, isDir ? path.join(stage.root, destAbs) : target);
            }
          }
          log(`${stage.name}: ${label}`);
          break;
        }
        case 'RUN': {
          const cmd = parseCommand(ins.args);
          const text = cmd.exec ? cmd.exec.join(' ') : cmd.shell;
          if (/(^|[\s=;&|])\/(?!dev\/null)/.test(text)) {
            fail(`RUN steps must use relative paths so they can run outside the image: ${label}`);
          }
          const t0 = Date.now();
          const env = { ...hostEnv(), ...globalArgs, ...stage.args, ...mapEnv(stage) };
          const cwd = path.join(stage.root, stage.workdir);
          const r = cmd.exec
            ? spawnSync(cmd.exec[0], cmd.exec.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
            : spawnSync('sh', ['-c', cmd.shell], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
          if (r.status !== 0) {
            const output = `${r.stdout ?? ''}${r.stderr ?? ''}`.split('\n').slice(-40).join('\n');
            fail(`${stage.name}: ${label} exited with ${r.status ?? r.signal}\n${output}`);
          }
          log(`${stage.name}: ${label} (${seconds(Date.now() - t0)})`);
          break;
        }
        case 'USER':
          stage.user = ins.args;
          break;
        case 'EXPOSE':
          stage.expose = ins.args;
          break;
        case 'HEALTHCHECK': {
          const { flags, rest } = takeFlags(ins.args);
          if (!rest.startsWith('CMD')) fail(`HEALTHCHECK without CMD: ${label}`);
          stage.healthcheck = { ...parseCommand(rest.slice(3).trim()), flags };
          break;
        }
        case 'CMD':
          stage.cmd = parseCommand(ins.args);
          break;
        case 'ENTRYPOINT':
          fail('ENTRYPOINT is not supported here (use CMD in exec form)');
          break;
        case 'LABEL':
          break;
        default:
          fail(`unsupported instruction ${ins.keyword}`);
      }
    }

    const runtime = stages.at(-1);
    if (!runtime?.user || /^(root|0)(:|$)/.test(runtime.user))
      fail('the runtime stage must run as a non-root USER');
    if (!runtime.healthcheck) fail('the runtime stage has no HEALTHCHECK');
    if (!JSON.stringify(runtime.healthcheck).includes('/readyz')) fail('the HEALTHCHECK must probe /readyz');
    if (!runtime.cmd?.exec)
      fail('the runtime stage needs a CMD in exec form (so SIGTERM reaches the server)');
    checkProductionDependencies(runtime);

    // --- start it as the container would, against a fresh database
    const adminUrl = process.env.DATABASE_URL;
    const db = adminUrl ? await createDatabase(adminUrl) : null;
    if (db) cleanups.push(() => db.drop());
    const port = await freePort();
    const env = {
      ...hostEnv(),
      ...mapEnv(runtime),
      PORT: String(port),
      LOG_LEVEL: 'warn',
      ...(db ? { DATABASE_URL: db.url } : {}),
    };
    const cwd = path.join(runtime.root, runtime.workdir);
    const t0 = Date.now();
    const server = spawn(runtime.cmd.exec[0], runtime.cmd.exec.slice(1), {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    server.stdout.on('data', (d) => (output += d));
    server.stderr.on('data', (d) => (output += d));
    const exited = new Promise((resolve) => server.once('exit', (code, signal) => resolve({ code, signal })));
    cleanups.unshift(() => {
      if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
    });
    log(
      `runtime: CMD ${runtime.cmd.exec.join(' ')} on port ${port} (${db ? 'fresh PostgreSQL database' : 'embedded database'})`,
    );

    const hc = runtime.healthcheck;
    const budget = parseDuration(hc.flags['start-period'], 60_000) + 10_000;
    let healthy = false;
    while (!healthy && Date.now() - t0 < budget) {
      if (server.exitCode !== null)
        fail(`the server exited with ${server.exitCode} before it was healthy:\n${output}`);
      const probe = hc.exec
        ? spawnSync(hc.exec[0], hc.exec.slice(1), {
            cwd,
            env,
            timeout: parseDuration(hc.flags.timeout, 3000),
          })
        : spawnSync('sh', ['-c', hc.shell], { cwd, env, timeout: parseDuration(hc.flags.timeout, 3000) });
      healthy = probe.status === 0;
      if (!healthy) await new Promise((r) => setTimeout(r, 300));
    }
    if (!healthy) fail(`the HEALTHCHECK (/readyz) did not pass within ${seconds(budget)}:\n${output}`);
    log(`runtime: HEALTHCHECK passed after ${seconds(Date.now() - t0)}`);

    const base = `http://127.0.0.1:${port}`;
    const ready = await fetch(`${base}/readyz`);
    if (ready.status !== 200) fail(`/readyz answered ${ready.status}`);
    const page = await fetch(`${base}/`);
    const html = await page.text();
    if (page.status !== 200 || !html.includes('<div id="root">')) fail('GET / did not serve the web app');
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    if (!asset || (await fetch(`${base}${asset}`)).status !== 200) fail('the web app script is not served');
    const missing = await fetch(`${base}/api/no-such-path`);
    if (missing.status !== 404 || !(missing.headers.get('content-type') ?? '').includes('json')) {
      fail('an unknown /api path did not answer JSON 404');
    }
    log('runtime: /readyz 200, web app and its script served, unknown /api path → JSON 404');

    server.kill('SIGTERM');
    let timer;
    const stopTimer = new Promise((resolve) => {
      timer = setTimeout(() => resolve(null), 20_000);
    });
    const stopped = await Promise.race([exited, stopTimer]);
    clearTimeout(timer);
    if (!stopped) fail('the server did not stop within 20 s of SIGTERM');
    if (stopped.code !== 0)
      fail(`the server exited with ${stopped.code ?? stopped.signal} after SIGTERM:\n${output}`);
    log('runtime: SIGTERM → clean exit 0');
    log(
      `OK: ${stages.length} stages, ${skipped} OS-only steps skipped, ${seconds(Date.now() - started)} in all`,
    );
  } finally {
    for (const c of cleanups) {
      try {
        await c();
      } catch (err) {
        console.warn(`[verify-dockerfile] cleanup: ${err.message}`);
      }
    }
  }
}

/** Container paths in ENV values (e.g. WEB_DIST_DIR=/app/web) point into the stage's folder. */
function mapEnv(stage) {
  const out = {};
  for (const [k, v] of Object.entries(stage.env)) {
    const first = v.startsWith('/') ? v.split('/')[1] : undefined;
    out[k] = first && existsSync(path.join(stage.root, first)) ? path.join(stage.root, v) : v;
  }
  return out;
}

/**
 * The runtime's node_modules holds the server's production dependencies and nothing else (optional
 * ones included: the embedded PostgreSQL binaries let the image run without DATABASE_URL).
 */
function checkProductionDependencies(runtime) {
  const appDir = path.join(runtime.root, runtime.workdir);
  const pkg = JSON.parse(readFileSync(path.join(appDir, 'package.json'), 'utf8'));
  const allowed = new Set([
    ...Object.keys(pkg.dependencies ?? {}),
    ...Object.keys(pkg.optionalDependencies ?? {}),
  ]);
  const dev = Object.keys(pkg.devDependencies ?? {});
  const top = [];
  for (const entry of readdirSync(path.join(appDir, 'node_modules'))) {
    if (entry.startsWith('.')) continue;
    if (entry.startsWith('@')) {
      for (const sub of readdirSync(path.join(appDir, 'node_modules', entry))) top.push(`${entry}/${sub}`);
    } else top.push(entry);
  }
  const extra = top.filter((name) => !allowed.has(name));
  if (extra.length)
    fail(`the runtime has packages that are not production dependencies: ${extra.join(', ')}`);
  const leaked = dev.filter((name) => existsSync(path.join(appDir, 'node_modules', name)));
  if (leaked.length) fail(`development dependencies in the runtime: ${leaked.join(', ')}`);
  log(`runtime: node_modules holds only the ${top.length} production dependencies`);
}

// exitCode rather than exit(): a piped stdout is flushed before the process ends.
main().catch((err) => {
  console.error(`[verify-dockerfile] FAILED: ${err instanceof VerifyError ? err.message : err.stack}`);
  process.exitCode = 1;
});
