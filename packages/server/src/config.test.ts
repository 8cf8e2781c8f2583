import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

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
