import path from 'node:path';
import { DEFAULT_SUPPORT_EMAIL, DEFAULT_TIME_ZONE } from '@uf/shared/constants';
import { isSafeText } from '@uf/shared/text-safety';
import { z } from 'zod';

// The only reader of process.env, and the one list of the app's variables: the README's configuration
// table and .env.example are checked against this schema (names and defaults) by config.test.ts.

const boolFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: "must be 'true' or 'false'" })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const seconds = (min: number, max: number) =>
  z.coerce
    .number({ error: 'must be a number of seconds' })
    .int('must be a whole number of seconds')
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`);

const envSchema = z.object({
  PORT: z.coerce.number({ error: 'must be a port number' }).int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .refine((v) => /^postgres(ql)?:\/\//.test(v), 'must be a postgres:// or postgresql:// URL')
    .optional(),
  DATA_DIR: z.string().min(1).default('.data'),
  ADMIN_USERNAME: z.string().min(1).max(100).optional(),
  ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').max(200).optional(),
  ADMIN_REQUIRE_2FA: boolFlag.default(false),
  ADMIN_PASSWORD_SCRYPT_LOG_N: z.coerce
    .number({ error: 'must be a whole number (log2 of scrypt N)' })
    .int('must be a whole number (log2 of scrypt N)')
    .min(12, 'must be at least 12')
    .max(20, 'must be at most 20 (2^20 needs 1 GiB per hash)')
    .default(17),
  // Sign-in attempts from one address in 15 minutes (issue 22): raise it for many admins behind one NAT.
  ADMIN_SIGN_IN_LIMIT_PER_ADDRESS: z.coerce
    .number({ error: 'must be a whole number of attempts' })
    .int('must be a whole number of attempts')
    .min(5, 'must be at least 5')
    .max(100_000)
    .default(30),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  SUPPORT_EMAIL: z.email({ error: 'must be an e-mail address' }).default(DEFAULT_SUPPORT_EMAIL),
  BACKUP_DIR: z.string().min(1).optional(),
  // The app's own backups kept after each new one (issue 26); the compose sidecar reads the same name.
  BACKUP_KEEP: z.coerce
    .number({ error: 'must be a number of backups' })
    .int('must be a whole number of backups')
    .min(1, 'must be at least 1')
    .max(10_000)
    .default(14),
  // Fastify 5.12 ignores a hop count (it cannot tell a proxy from a direct client), so one would
  // silently trust nothing: refuse it and ask for the proxy's addresses instead.
  TRUST_PROXY: z
    .string()
    .default('false')
    .refine(
      (v) => !/^\s*[1-9]\d*\s*$/.test(v),
      'a hop count is not supported: list the proxy addresses or CIDRs, e.g. 172.30.80.10 or 10.0.0.0/8',
    ),
  TIME_ZONE: z
    .string()
    .default(DEFAULT_TIME_ZONE)
    .refine((tz) => {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, 'must be an IANA time zone such as America/New_York'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST_DIR: z.string().optional(),
  AD_PIXEL_SCRIPT_URL: z
    .url({ protocol: /^https$/, error: 'must be an https:// URL of the ad pixel script' })
    .optional(),
  TRUSTEDFORM_ENABLED: boolFlag.default(false),
  PARTNER_RATE_LIMIT_PER_MINUTE: z.coerce
    .number({ error: 'must be a whole number of requests' })
    .int('must be a whole number of requests')
    .min(1, 'must be at least 1')
    .max(100_000, 'must be at most 100000')
    .default(120),
  COOKIE_SECURE: boolFlag.default(false),
  DB_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
  REQUEST_TIMEOUT_SECONDS: seconds(1, 3600).default(30),
  DB_CONNECT_TIMEOUT_SECONDS: seconds(1, 600).default(5),
  DB_STATEMENT_TIMEOUT_SECONDS: seconds(1, 3600).default(20),
  SHUTDOWN_TIMEOUT_SECONDS: seconds(1, 600).default(10),
  EMBEDDED_DB_RESTARTS: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(0)
    .max(100)
    .default(5),
  METRICS_TOKEN: z.string().min(32, 'must be at least 32 characters').optional(),
  ANALYTICS_COUNTRY_HEADER: z
    .string()
    .regex(/^[A-Za-z0-9-]+$/, 'must be an HTTP header name such as CF-IPCountry')
    .transform((h) => h.toLowerCase())
    .optional(),
  ANALYTICS_RETENTION_DAYS: z.coerce
    .number({ error: 'must be a number of days' })
    .int('must be a whole number of days')
    .min(1, 'must be at least 1 day')
    .max(36_500)
    .default(395),
  // Offline conversion files for the ad platforms (issue 24, ADR 059).
  ADS_CONVERSION_NAME: z
    .string()
    .trim()
    .min(1)
    .max(100, 'must be at most 100 characters')
    .refine((v) => isSafeText(v) && !/[\t\r\n]/.test(v), 'must be one line without control characters')
    .default('Lead'),
  ADS_CONVERSION_VALUE: z
    .string()
    .trim()
    .regex(/^\d{1,12}(\.\d{1,6})?$/, 'must be a number such as 25 or 12.50 (or unset)')
    .optional(),
  ADS_CONVERSION_CURRENCY: z
    .string()
    .trim()
    .regex(/^[A-Z]{3}$/, 'must be a three-letter ISO 4217 currency code such as USD')
    .default('USD'),
  // E-mail reports and alerts (issue 24, ADR 063). The URL carries the SMTP credentials: a bad value is
  // reported without echoing it.
  SMTP_URL: z
    .string()
    .refine(
      (v) => /^smtps?:\/\/[^/\s]+/.test(v),
      'must be an smtp:// or smtps:// URL such as smtps://user:pass@smtp.example.com:465',
    )
    .optional(),
  MAIL_FROM: z
    .string()
    .trim()
    .max(300)
    .refine(
      (v) => /^[^<>\r\n]*<[^\s@<>]+@[^\s@<>]+>$/.test(v) || /^[^\s@<>]+@[^\s@<>]+$/.test(v),
      'must be an e-mail address, or a name and address such as Lead reports <reports@example.com>',
    )
    .optional(),
  ALERT_NO_LEADS_HOURS: z.coerce
    .number({ error: 'must be a number of business hours' })
    .int('must be a whole number of business hours')
    .min(1, 'must be at least 1')
    .max(400, 'must be at most 400')
    .default(4),
  WEBHOOKS_ALLOW_PRIVATE_URLS: boolFlag.default(false),
  // Seconds between a webhook delivery's attempts after the first (ADR 062): Standard Webhooks' schedule.
  WEBHOOKS_RETRY_SCHEDULE: z
    .string()
    .default('5,300,1800,7200,18000,36000,36000')
    .refine(
      (v) => v.split(',').every((s) => /^\s*\d+(\.\d+)?\s*$/.test(s)),
      'must be comma-separated numbers of seconds, e.g. 5,300,1800',
    ),
  WEBHOOKS_CONCURRENCY: z.coerce
    .number({ error: 'must be a whole number of deliveries' })
    .int('must be a whole number of deliveries')
    .min(0, 'must be 0 (this process sends none) or more')
    .max(1000)
    .default(32),
});

export type AppConfig = {
  port: number;
  host: string;
  /** External PostgreSQL; undefined means the embedded PostgreSQL in dataDir. */
  databaseUrl: string | undefined;
  dataDir: string;
  adminUsername: string | undefined;
  adminPassword: string | undefined;
  sessionSecret: string | undefined;
  /** Admins without two-factor sign-in can only reach its enrolment after signing in. */
  adminRequireTwoFactor: boolean;
  /** log2 of scrypt's N for admin password hashes (17 = OWASP's 2^17); older hashes are rewritten at sign-in. */
  adminPasswordScryptLogN: number;
  adminSignInLimitPerAddress: number;
  supportEmail: string;
  backupDir: string;
  /** The newest this many of the app's backups (uf-backup-…) are kept after each backup. */
  backupKeep: number;
  /** Fastify trustProxy: false, true, or a comma-separated list of addresses/CIDRs. */
  trustProxy: boolean | string;
  timeZone: string;
  logLevel: string;
  webDistDir: string | undefined;
  /** Ad vendor tag loaded on the landing page; unset means no third-party script at all. */
  adPixelScriptUrl: string | undefined;
  /** Load the TrustedForm script on the landing page and store the certificate URL of each lead. */
  trustedFormEnabled: boolean;
  /** Requests a minute each partner API key may make. */
  partnerRateLimitPerMinute: number;
  cookieSecure: boolean;
  dbPoolMax: number;
  /** A request's whole body must arrive within this (else 408 and the connection closed). */
  requestTimeoutSeconds: number;
  /** Waiting for a pooled database connection (or a new one to connect): beyond it, 503. */
  dbConnectTimeoutSeconds: number;
  /** PostgreSQL statement_timeout of the app's connections (the client gives up 5 s later). */
  dbStatementTimeoutSeconds: number;
  /** On SIGTERM: how long requests in flight may take to finish before their connections are closed. */
  shutdownTimeoutSeconds: number;
  /** Restarts of a stopped embedded PostgreSQL before the server gives up and exits non-zero. */
  embeddedDbRestarts: number;
  /** Bearer token that unlocks GET /metrics; undefined switches the endpoint off. */
  metricsToken: string | undefined;
  /** Header (lower case) a trusted proxy sets to the visitor's country, e.g. cf-ipcountry. */
  analyticsCountryHeader: string | undefined;
  /** Raw analytics events older than this are deleted; the daily rollups are kept. */
  analyticsRetentionDays: number;
  /** What the offline conversion files (Google Ads, Microsoft Advertising) say of each lead. */
  adsConversion: { name: string; value: string; currency: string };
  /** E-mail reports and alerts (ADR 063): SMTP_URL unset means no mail at all. */
  mail: { smtpUrl: string | undefined; from: string; alertNoLeadsHours: number };
  /** Also allow http:// and loopback/private addresses for webhook endpoints (local receivers, tests). */
  webhooksAllowPrivateUrls: boolean;
  /** Seconds to wait before each retry of a failed webhook delivery (its length is the number of retries). */
  webhooksRetrySchedule: number[];
  /** Webhook deliveries in flight at once in this process; 0: it sends none (other replicas do). */
  webhooksConcurrency: number;
  /** Run migrations when the app starts (always true outside of tests that share a migrated DB). */
  migrate: boolean;
};

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

function parseTrustProxy(raw: string): boolean | string {
  const v = raw.trim().toLowerCase();
  if (v === '' || v === 'false' || v === '0' || v === 'no') return false;
  if (v === 'true' || v === 'yes') return true;
  return raw.trim();
}

/** Every variable the app reads, with its default when it has one (the schema's own). */
export const CONFIG_VARIABLES: { name: string; default: unknown }[] = Object.entries(envSchema.shape).map(
  ([name, schema]) => {
    const parsed = (schema as z.ZodType).safeParse(undefined);
    return { name, default: parsed.success ? parsed.data : undefined };
  },
);

export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  // Empty strings count as "not set", as in most .env tooling.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir,
    adminUsername: e.ADMIN_USERNAME,
    adminPassword: e.ADMIN_PASSWORD,
    sessionSecret: e.SESSION_SECRET,
    adminRequireTwoFactor: e.ADMIN_REQUIRE_2FA,
    adminPasswordScryptLogN: e.ADMIN_PASSWORD_SCRYPT_LOG_N,
    adminSignInLimitPerAddress: e.ADMIN_SIGN_IN_LIMIT_PER_ADDRESS,
    supportEmail: e.SUPPORT_EMAIL,
    backupDir: path.resolve(e.BACKUP_DIR ?? path.join(dataDir, 'backups')),
    backupKeep: e.BACKUP_KEEP,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    timeZone: e.TIME_ZONE,
    logLevel: e.LOG_LEVEL,
    webDistDir: e.WEB_DIST_DIR,
    adPixelScriptUrl: e.AD_PIXEL_SCRIPT_URL,
    trustedFormEnabled: e.TRUSTEDFORM_ENABLED,
    partnerRateLimitPerMinute: e.PARTNER_RATE_LIMIT_PER_MINUTE,
    cookieSecure: e.COOKIE_SECURE,
    dbPoolMax: e.DB_POOL_MAX,
    requestTimeoutSeconds: e.REQUEST_TIMEOUT_SECONDS,
    dbConnectTimeoutSeconds: e.DB_CONNECT_TIMEOUT_SECONDS,
    dbStatementTimeoutSeconds: e.DB_STATEMENT_TIMEOUT_SECONDS,
    shutdownTimeoutSeconds: e.SHUTDOWN_TIMEOUT_SECONDS,
    embeddedDbRestarts: e.EMBEDDED_DB_RESTARTS,
    metricsToken: e.METRICS_TOKEN,
    analyticsCountryHeader: e.ANALYTICS_COUNTRY_HEADER,
    analyticsRetentionDays: e.ANALYTICS_RETENTION_DAYS,
    adsConversion: {
      name: e.ADS_CONVERSION_NAME,
      value: e.ADS_CONVERSION_VALUE ?? '',
      currency: e.ADS_CONVERSION_CURRENCY,
    },
    mail: {
      smtpUrl: e.SMTP_URL,
      from: e.MAIL_FROM ?? e.SUPPORT_EMAIL,
      alertNoLeadsHours: e.ALERT_NO_LEADS_HOURS,
    },
    webhooksAllowPrivateUrls: e.WEBHOOKS_ALLOW_PRIVATE_URLS,
    webhooksRetrySchedule: e.WEBHOOKS_RETRY_SCHEDULE.split(',').map(Number),
    webhooksConcurrency: e.WEBHOOKS_CONCURRENCY,
    migrate: true,
  };
}
