import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      databaseUrl: undefined,
      supportEmail: 'support@unclaimedfundsfinder.com',
      trustProxy: false,
      timeZone: 'America/New_York',
      cookieSecure: false,
    });
    expect(c.dataDir).toMatch(/\.data$/);
    expect(c.backupDir).toBe(`${c.dataDir}/backups`);
  });

  it('names every bad variable in one error', () => {
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        SUPPORT_EMAIL: 'nope',
        TIME_ZONE: 'Mars/Olympus',
        ADMIN_PASSWORD: 'short',
        SESSION_SECRET: 'too-short',
      });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const problems = (err as ConfigError).problems.join('\n');
      for (const key of [
        'PORT',
        'DATABASE_URL',
        'SUPPORT_EMAIL',
        'TIME_ZONE',
        'ADMIN_PASSWORD',
        'SESSION_SECRET',
      ]) {
        expect(problems).toContain(`${key}:`);
      }
    }
  });

  it('treats empty values as unset and parses TRUST_PROXY forms', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' }).port).toBe(3000);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(() => loadConfig({ TRUST_PROXY: '2' })).toThrow(/TRUST_PROXY: a hop count is not supported/);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toBe('10.0.0.0/8, 127.0.0.1');
  });

  it('reads the ad conversion settings, with their defaults', () => {
    expect(loadConfig({}).adsConversion).toEqual({ name: 'Lead', value: '', currency: 'USD' });
    expect(
      loadConfig({
        ADS_CONVERSION_NAME: 'Qualified lead',
        ADS_CONVERSION_VALUE: '12.50',
        ADS_CONVERSION_CURRENCY: 'EUR',
      }).adsConversion,
    ).toEqual({ name: 'Qualified lead', value: '12.50', currency: 'EUR' });
    for (const [key, value] of [
      ['ADS_CONVERSION_NAME', 'two\nlines'],
      ['ADS_CONVERSION_VALUE', '-3'],
      ['ADS_CONVERSION_VALUE', '12,50'],
      ['ADS_CONVERSION_CURRENCY', 'usd'],
    ] as const) {
      expect(() => loadConfig({ [key]: value }), `${key}=${value}`).toThrow(new RegExp(`${key}:`));
    }
  });
});

// Configuration described once (issue 23): the schema above is the list; the documents follow it.
describe('the configuration documents', () => {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const tableRows = new Map(
    [...readme.matchAll(/^\| `([A-Z][A-Z0-9_]+)` +\|([^|]*)\|/gm)].map((m) => [
      m[1] as string,
      (m[2] ?? '').trim(),
    ]),
  );
  const names = CONFIG_VARIABLES.map((v) => v.name);

  it("the README's table lists exactly the schema's variables, each with the schema's default", () => {
    expect(
      [...tableRows.keys()].filter(
        (n) => !names.includes(n) && !/^(POSTGRES|BACKUP_INTERVAL|HTTP_PORT|STACK|PROXY)/.test(n),
      ),
    ).toEqual([]);
    expect(names.filter((n) => !tableRows.has(n))).toEqual([]);
    for (const v of CONFIG_VARIABLES) {
      if (v.default === undefined) continue;
      expect(tableRows.get(v.name), v.name).toContain(`\`${String(v.default)}\``);
    }
  });

  it('.env.example offers every variable an operator sets (the image and compose set the rest)', () => {
    const envExample = readFileSync(path.join(root, '.env.example'), 'utf8');
    const offered = new Set([...envExample.matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]));
    const compose = readFileSync(path.join(root, 'docker-compose.yml'), 'utf8');
    const appEnvironment =
      /\n {2}app:\n[\s\S]*?\n {4}environment:\n((?: {6}.*\n| *#.*\n)+)/.exec(compose)?.[1] ?? '';
    const setByCompose = [...appEnvironment.matchAll(/^ {6}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]);
    const dockerfile = readFileSync(path.join(root, 'Dockerfile'), 'utf8');
    const setByImage = [...dockerfile.matchAll(/(?:ENV|\\)\s+([A-Z][A-Z0-9_]+)=/g)].map((m) => m[1]);
    expect(setByCompose).toContain('DATABASE_URL');
    expect(setByImage).toContain('WEB_DIST_DIR');
    const missing = names.filter(
      (n) => !offered.has(n) && !setByCompose.includes(n) && !setByImage.includes(n),
    );
    expect(missing).toEqual([]);
  });
});
