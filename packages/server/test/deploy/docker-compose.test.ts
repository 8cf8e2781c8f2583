import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// The compose stack as files: what `docker compose up` would start, checked without a Docker engine.
const root = path.resolve(import.meta.dirname, '../../../..');
const read = (rel: string) => readFileSync(path.join(root, rel), 'utf8');

type Service = {
  image?: string;
  build?: string | { context: string };
  ports?: string[];
  expose?: string[];
  environment?: Record<string, string>;
  env_file?: string | string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] | string; interval?: string };
  container_name?: string;
  networks?: { default?: { ipv4_address?: string } };
};
type Compose = {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
  networks?: { default?: { ipam?: { config?: { subnet?: string; ip_range?: string }[] } } };
};

const compose = parse(read('docker-compose.yml')) as Compose;
const services = compose.services;
const service = (name: string): Service => {
  const s = services[name];
  if (!s) throw new Error(`no service '${name}'`);
  return s;
};
const envExample = Object.fromEntries(
  read('.env.example')
    .split('\n')
    .filter((l) => /^[A-Z_][A-Z0-9_]*=/.test(l))
    .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
);
/** `${NAME:-default}` → default (or the .env.example value when the compose file has none). */
const resolveDefault = (value: string | undefined) =>
  (value ?? '').replace(/\$\{([A-Z_]+)(?::-([^}]*))?[^}]*\}/g, (_m, name: string, def?: string) =>
    envExample[name] ? envExample[name] : (def ?? ''),
  );
const mountsOf = (s: Service) =>
  (s.volumes ?? []).map((v) => {
    const [source = '', target = ''] = v.split(':');
    return { source, target };
  });
const ipToNumber = (ip: string) => ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
function inCidr(ip: string, cidr: string): boolean {
  const [base = '', bits = '32'] = cidr.split('/');
  const size = 2 ** (32 - Number(bits));
  const start = Math.floor(ipToNumber(base) / size) * size;
  return ipToNumber(ip) >= start && ipToNumber(ip) < start + size;
}
const hasCommand = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;

describe('docker-compose.yml', () => {
  it('has the four services: postgres, app, proxy and the backup sidecar', () => {
    expect(Object.keys(services).sort()).toEqual(['app', 'backup', 'postgres', 'proxy']);
  });

  it('runs PostgreSQL of a pinned major on a named volume, with a healthcheck', () => {
    const pg = service('postgres');
    expect(pg.image).toMatch(/^postgres:\d+(-alpine)?$/);
    expect(mountsOf(pg)).toContainEqual({ source: 'pgdata', target: '/var/lib/postgresql/data' });
    expect(compose.volumes).toHaveProperty('pgdata');
    expect(JSON.stringify(pg.healthcheck?.test)).toContain('pg_isready');
    // The password is never written into the file: compose refuses to start without one.
    expect(pg.environment?.POSTGRES_PASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD:\?/);
  });

  it('starts the app after PostgreSQL is healthy, from .env, scalable behind the proxy', () => {
    const app = service('app');
    expect(app.build).toBe('.');
    expect(app.depends_on?.postgres?.condition).toBe('service_healthy');
    expect(app.env_file).toBe('.env');
    // --scale needs no fixed host port and no fixed container name.
    expect(app.ports).toBeUndefined();
    expect(app.container_name).toBeUndefined();
    expect(resolveDefault(app.environment?.DATABASE_URL)).toMatch(
      /^postgres:\/\/uf:@postgres:5432\/unclaimed_funds$/,
    );
    // The Dockerfile's HEALTHCHECK probes /readyz.
    expect(read('Dockerfile')).toMatch(/HEALTHCHECK[^\n]*\\\n[^\n]*\/readyz/);
    expect(mountsOf(app)).toContainEqual({ source: 'backups', target: app.environment?.BACKUP_DIR });
  });

  it('publishes the site only through the proxy, which spreads requests over every replica', () => {
    const proxy = service('proxy');
    expect(proxy.ports).toEqual([expect.stringMatching(/^\$\{HTTP_PORT:-\d+\}:80$/)]);
    expect(proxy.depends_on?.app?.condition).toBe('service_healthy');
    expect(mountsOf(proxy)).toContainEqual({
      source: './infra/proxy/Caddyfile',
      target: '/etc/caddy/Caddyfile',
    });
    const caddyfile = read('infra/proxy/Caddyfile');
    expect(caddyfile).toMatch(/dynamic a \{\$APP_HOST:app\} \{\$APP_PORT:3000\}/);
    expect(caddyfile).toMatch(/@metrics path \/metrics[^\n]*\n\s*respond @metrics 404/);
    // Caddy sets X-Forwarded-For itself; a configured trusted_proxies would make it keep client values.
    expect(caddyfile).not.toMatch(/^\s*trusted_proxies/m);
  });

  it("trusts X-Forwarded-For from the proxy's fixed address only, outside the range others get", () => {
    const proxyAddress = resolveDefault(service('proxy').networks?.default?.ipv4_address);
    expect(proxyAddress).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(resolveDefault(service('app').environment?.TRUST_PROXY)).toBe(proxyAddress);
    const ipam = compose.networks?.default?.ipam?.config?.[0];
    const subnet = resolveDefault(ipam?.subnet);
    const dynamic = resolveDefault(ipam?.ip_range);
    expect(inCidr(proxyAddress, subnet)).toBe(true);
    expect(inCidr(proxyAddress, dynamic)).toBe(false);
    expect(inCidr(dynamic.split('/')[0] ?? '', subnet)).toBe(true);
  });

  it('runs the backup sidecar on a schedule into the shared backups volume, keeping N dumps', () => {
    const backup = service('backup');
    expect(backup.build).toBe('infra/backup');
    expect(backup.depends_on?.postgres?.condition).toBe('service_healthy');
    const env = backup.environment ?? {};
    expect(Number(resolveDefault(env.BACKUP_INTERVAL_SECONDS))).toBeGreaterThan(0);
    expect(Number(resolveDefault(env.BACKUP_KEEP))).toBeGreaterThan(0);
    // The same database as the app, through libpq's variables (no password on a command line).
    const pgEnv = service('postgres').environment ?? {};
    expect(env.PGHOST).toBe('postgres');
    expect(env.PGUSER).toBe(pgEnv.POSTGRES_USER);
    expect(env.PGDATABASE).toBe(pgEnv.POSTGRES_DB);
    expect(env.PGPASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD\}$/);
    expect(env.DATABASE_URL).toBeUndefined();
    expect(mountsOf(backup)).toContainEqual({ source: 'backups', target: env.BACKUP_DIR });
    expect(compose.volumes).toHaveProperty('backups');
    expect(backup.healthcheck?.test).toEqual(['CMD', 'backup.sh', 'health']);
    // pg_dump must not be older than the server: the sidecar uses the database's own image.
    const sidecarFrom = /^FROM (\S+)/m.exec(read('infra/backup/Dockerfile'))?.[1];
    expect(sidecarFrom).toBe(service('postgres').image);
  });

  it('documents every variable it reads in .env.example', () => {
    const used = new Set([...read('docker-compose.yml').matchAll(/\$\{([A-Z_]+)/g)].map((m) => m[1]));
    for (const name of used) expect(Object.keys(envExample), `${name} in .env.example`).toContain(name);
  });
});

describe.skipIf(!hasCommand('docker-compose'))("Debian's docker-compose (v1)", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'uf-compose-'));
  cpSync(path.join(root, 'docker-compose.yml'), path.join(dir, 'docker-compose.yml'));
  cpSync(path.join(root, 'infra'), path.join(dir, 'infra'), { recursive: true });
  const config = () =>
    spawnSync('docker-compose', ['-f', 'docker-compose.yml', 'config'], { cwd: dir, encoding: 'utf8' });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('accepts the file with a filled-in .env', () => {
    writeFileSync(
      path.join(dir, '.env'),
      read('.env.example').replace(/^POSTGRES_PASSWORD=$/m, 'POSTGRES_PASSWORD=s3cret0pen'),
    );
    const r = config();
    expect(r.status, r.stderr).toBe(0);
    const resolved = parse(r.stdout) as Compose;
    expect(resolved.services.app?.environment?.DATABASE_URL).toBe(
      'postgres://uf:s3cret0pen@postgres:5432/unclaimed_funds',
    );
    expect(resolved.services.backup?.environment?.BACKUP_INTERVAL_SECONDS).toBe('86400');
  });

  it('refuses to start without a database password', () => {
    writeFileSync(path.join(dir, '.env'), read('.env.example'));
    const r = config();
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('set POSTGRES_PASSWORD in .env');
  });
});

describe.skipIf(!hasCommand('caddy'))('the proxy configuration', () => {
  it('is valid for Caddy', () => {
    const r = spawnSync(
      'caddy',
      ['validate', '--config', path.join(root, 'infra/proxy/Caddyfile'), '--adapter', 'caddyfile'],
      { encoding: 'utf8' },
    );
    expect(r.status, r.stderr).toBe(0);
  });
});
