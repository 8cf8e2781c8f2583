import type { IncomingMessage, ServerResponse } from 'node:http';
import { ERROR_CODES } from '@uf/shared/errors';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import { isAdminScope } from './origin-check';

// Security headers on every response (issue 13, ADR 052), with helmet:
// - A Content-Security-Policy: scripts only from this site (every script of the built app is a file;
//   no inline script), plus the ad vendor's origin and TrustedForm's hosts only when configured;
//   nothing may frame the site (frame-ancestors 'none'), no plugins, no <base> elsewhere, forms post
//   only here. Styles: this site's files, and inline style attributes and <style> elements, which
//   Mantine uses for its CSS variables (a nonce cannot cover style attributes).
// - nosniff, Referrer-Policy strict-origin-when-cross-origin, X-Frame-Options DENY, a Permissions-
//   Policy that denies what the site never uses, HSTS only on HTTPS (behind the compose proxy).
// - Cache-Control: no-store on every admin API answer and export (lead data never sits in a cache).
// - Violations are reported to POST /api/csp-report, logged at warn, rate-limited per client.

export type SecurityHeadersOptions = {
  adPixelScriptUrl?: string | null;
  trustedFormEnabled: boolean;
};

export const CSP_REPORT_PATH = '/api/csp-report';
const TRUSTEDFORM = ['https://api.trustedform.com', 'https://cert.trustedform.com'];

const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'camera=()',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'usb=()',
  'serial=()',
  'xr-spatial-tracking=()',
].join(', ');

/** The CSP directives for this configuration (exported for tests and the ADR). */
export function cspDirectives(options: SecurityHeadersOptions) {
  const pixel = options.adPixelScriptUrl ? [new URL(options.adPixelScriptUrl).origin] : [];
  const trusted = options.trustedFormEnabled ? TRUSTEDFORM : [];
  const thirdParty = [...pixel, ...trusted];
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", ...thirdParty],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', ...thirdParty],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'", ...thirdParty],
    frameSrc: thirdParty.length ? thirdParty : ["'none'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    reportUri: [CSP_REPORT_PATH],
    upgradeInsecureRequests: null,
  };
}

/** The headers helmet sets for a configuration, collected from one run of its middleware. */
function helmetHeaders(config: Parameters<typeof helmet>[0]): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader(name: string, value: unknown) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(config)({} as IncomingMessage, res as unknown as ServerResponse, () => {});
  return headers;
}

export const securityHeadersPlugin = fp(
  async (app: FastifyInstance, options: SecurityHeadersOptions) => {
    // helmet decides the headers; they depend only on the configuration, so it runs once here, into a
    // header map that every answer gets in one call. (@fastify/helmet runs helmet again on every
    // request, CSP parsing included: 15 % of the track route's CPU, ADR 051/052.)
    const headers = helmetHeaders({
      contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(options) },
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      frameguard: { action: 'deny' },
      // Set below, on HTTPS only: a plain-HTTP `npm start` must not pin browsers to HTTPS.
      strictTransportSecurity: false,
      // The ad vendor's and TrustedForm's scripts are cross-origin: no embedder policy.
      crossOriginEmbedderPolicy: false,
    });
    headers['permissions-policy'] = PERMISSIONS_POLICY;
    app.addHook('onRequest', (req, reply, done) => {
      reply.headers(headers);
      if (req.protocol === 'https')
        reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
      // Lead data never sits in a cache: the one place that says so for every admin answer (REST rows,
      // exports, tRPC's admin procedures, and their error answers), decided from the route matched — or,
      // for a path no route matched, from the normalised path — never from the raw URL (issue 22).
      if (isAdminScope(req)) reply.header('cache-control', 'no-store');
      done();
    });

    // Reports come as application/csp-report (report-uri) or application/reports+json (Reporting API).
    for (const type of ['application/csp-report', 'application/reports+json']) {
      app.addContentTypeParser(type, { parseAs: 'string', bodyLimit: 16 * 1024 }, (_req, body, done) => {
        try {
          done(null, JSON.parse(typeof body === 'string' ? body : body.toString('utf8')));
        } catch {
          done(null, null);
        }
      });
    }
    app.post(
      CSP_REPORT_PATH,
      {
        bodyLimit: 16 * 1024,
        preHandler: app.rateLimit ? app.rateLimit({ max: 30, timeWindow: '1 minute' }) : undefined,
      },
      async (req, reply) => {
        const report = req.body as Record<string, unknown> | unknown[] | null;
        if (!report || typeof report !== 'object') {
          return reply
            .code(400)
            .send({ error: ERROR_CODES.validation, message: 'Send a CSP violation report' });
        }
        req.log.warn({ cspReport: report }, 'content security policy violation');
        return reply.code(204).send();
      },
    );
  },
  { name: 'security-headers', dependencies: ['@fastify/rate-limit'] },
);
