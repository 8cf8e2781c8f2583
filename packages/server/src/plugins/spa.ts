import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import { DEFAULT_SUPPORT_EMAIL } from '@uf/shared/constants';
import { ERROR_CODES } from '@uf/shared/errors';
import { isPagePath } from '@uf/shared/pages';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

export type SpaOptions = { distDir: string; publicConfig: Record<string, unknown> };

const escapeAttr = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * Serves the built web app. Every page path (shared/pages) that is not a file gets index.html (client
 * routing, deep links on a full page load); any other path gets it with status 404 (the app shows its
 * not-found page); unknown /api paths answer JSON 404. Runtime config reaches the SPA
 * through a meta tag, so the bundle needs no rebuild per deployment and no inline script.
 */
/** One HTML document as served: this deployment's config inserted, compressed once at start. */
type Document = { html: string; br: Buffer; gzip: Buffer };

function prepareDocument(file: string, publicConfig: Record<string, unknown>): Document | null {
  if (!existsSync(file)) return null;
  let html = readFileSync(file, 'utf8').replace(
    '<!--app-config-->',
    `<meta name="app-config" content="${escapeAttr(JSON.stringify(publicConfig))}" />`,
  );
  // Prerendered pages were rendered with the default support address; the app shows the configured one.
  const supportEmail = publicConfig.supportEmail;
  if (typeof supportEmail === 'string' && supportEmail !== DEFAULT_SUPPORT_EMAIL) {
    html = html.split(DEFAULT_SUPPORT_EMAIL).join(escapeAttr(supportEmail));
  }
  return {
    html,
    br: brotliCompressSync(html, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }),
    gzip: gzipSync(html, { level: 9 }),
  };
}

export const spaPlugin = fp(
  async (app: FastifyInstance, opts: SpaOptions) => {
    const index = prepareDocument(path.join(opts.distDir, 'index.html'), opts.publicConfig);
    const hasBuild = index !== null;
    // Pages rendered at build time (web/prerender.mjs, ADR 053): they paint before any script runs.
    const landing = prepareDocument(
      path.join(opts.distDir, 'prerendered', 'landing.html'),
      opts.publicConfig,
    );
    const notFound = prepareDocument(
      path.join(opts.distDir, 'prerendered', 'not-found.html'),
      opts.publicConfig,
    );

    if (hasBuild) {
      await app.register(fastifyStatic, {
        root: opts.distDir,
        index: false,
        wildcard: true,
        // The build wrote .br and .gz beside each file (web/compress-dist.mjs): served when accepted.
        preCompressed: true,
        setHeaders(reply, filePath) {
          // Vite names assets by content hash: cache them for a year; everything else revalidates.
          const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
          reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
        },
      });
    }

    const sendDocument = (req: FastifyRequest, reply: FastifyReply, doc: Document, status = 200) => {
      reply
        .code(status)
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .header('vary', 'accept-encoding');
      const accepted = String(req.headers['accept-encoding'] ?? '');
      if (/\bbr\b/.test(accepted)) return reply.header('content-encoding', 'br').send(doc.br);
      if (/\bgzip\b/.test(accepted)) return reply.header('content-encoding', 'gzip').send(doc.gzip);
      return reply.send(doc.html);
    };
    const sendIndex = (req: FastifyRequest, reply: FastifyReply, status = 200) =>
      index ? sendDocument(req, reply, index, status) : reply.code(503).send();

    // '/' is the dist folder itself: @fastify/static would answer 403 for a directory.
    if (hasBuild) app.get('/', (req, reply) => sendDocument(req, reply, landing ?? (index as Document)));

    app.setNotFoundHandler(
      {
        preHandler: app.rateLimit ? app.rateLimit({ max: 300, timeWindow: '1 minute' }) : undefined,
      },
      (req, reply) => {
        const pathname = req.url.split('?')[0] ?? '/';
        const isApi = pathname === '/api' || pathname.startsWith('/api/');
        if (isApi) {
          const allowed = app.allowedMethods(pathname);
          if (allowed.length > 0) {
            return reply
              .code(405)
              .header('allow', allowed.join(', '))
              .send({
                error: ERROR_CODES.methodNotAllowed,
                message: `${req.method} is not allowed for ${pathname}; use ${allowed.join(' or ')}`,
              });
          }
        }
        if (isApi || (req.method !== 'GET' && req.method !== 'HEAD')) {
          return reply
            .code(404)
            .send({ error: ERROR_CODES.notFound, message: `No route for ${req.method} ${pathname}` });
        }
        if (!hasBuild) {
          return reply.code(503).type('text/plain').send('The web app is not built. Run `npm start`.');
        }
        // The app renders its not-found page for any other path; the status says so too.
        if (isPagePath(pathname)) return sendIndex(req, reply);
        return sendDocument(req, reply, notFound ?? (index as Document), 404);
      },
    );
  },
  { name: 'spa' },
);
