import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fastifyStatic from '@fastify/static';
import { DEFAULT_SUPPORT_EMAIL } from '@uf/shared/constants';
import { ERROR_CODES } from '@uf/shared/errors';
import type { ArmContent } from '@uf/shared/experiments';
import { LANDING_STEP_META, type LandingStep } from '@uf/shared/landing-step';
import { PAGE_DATE_TOKENS, type PageDates, pageDates } from '@uf/shared/page-dates';
import { isPagePath, isSignedInPagePath, SIGNED_IN_DOCUMENT } from '@uf/shared/page-paths';
import { FORM_TOKEN_FIELD, LEAD_FORM_ID } from '@uf/shared/quality-fields';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { brotliWithTail, type CompressedHead, compressHead, gzipWithTail } from './compressed-document';
// The decorations this plugin adds (renderLanding, renderArmPreview) are declared in landing-render.ts.
import type {} from './landing-render';
import { normalisedPath } from './origin-check';

/** The landing experiment's arm a request is served in (issue 48, ADR 075). */
export type ServedLandingArm = {
  content: ArmContent;
  contentHash: string;
  /** What the page's form token carries, so the lead records its arm (null: a preview or a rollout). */
  tokenArm: { experimentId: string; arm: string } | null;
};

export type SpaOptions = {
  distDir: string;
  publicConfig: Record<string, unknown>;
  /** The business time zone: the day whose date the public pages show (ADR 053). */
  timeZone: string;
  /** A new form token for a page served now (issue 33): every document carries one. */
  issueFormToken(arm?: ServedLandingArm['tokenArm']): Promise<string>;
  /** Issue 48: the landing experiment's arm of this request; null (or absent): the page as built. */
  landingArm?(req: FastifyRequest): Promise<ServedLandingArm | null>;
};

const escapeAttr = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * Serves the built web app. The public pages were rendered at build time (web/prerender.mjs, ADR 053):
 * each path listed in dist/prerendered/pages.json gets its own document, any other non-page path the
 * not-found one with status 404. The other page paths (the admin area) get index.html and render in the
 * browser, those behind sign-in with their first screen painted beside it (ADR 071); unknown /api paths
 * answer JSON 404. Runtime config reaches the app through a meta tag, so the
 * bundle needs no rebuild per deployment and no inline script.
 */
/**
 * One HTML document as served: this deployment's config and today's date inserted, compressed up to its
 * closing `</body>`; what follows is each answer's own (the form token, issue 33).
 */
type Document = { head: CompressedHead; end: string };

/**
 * The form token as the lead form's hidden field (issue 33, ADR 065). It stands at the end of the page and
 * belongs to the form by its id, so the form posts it without the app, and the app reads it from there.
 */
const formTokenField = (token: string) =>
  `<input type="hidden" name="${FORM_TOKEN_FIELD}" form="${LEAD_FORM_ID}" value="${escapeAttr(token)}">`;

/** The page split where the answer's own part goes: before its last `</body>`. */
function splitAtBodyEnd(html: string): { head: string; end: string } {
  const at = html.lastIndexOf('</body>');
  return at < 0 ? { head: html, end: '' } : { head: html.slice(0, at), end: html.slice(at) };
}

/** Rendered markup with the configured support address (pages render with the default one). */
function withSupportEmail(html: string, publicConfig: Record<string, unknown>): string {
  const supportEmail = publicConfig.supportEmail;
  if (typeof supportEmail === 'string' && supportEmail !== DEFAULT_SUPPORT_EMAIL) {
    return html.split(DEFAULT_SUPPORT_EMAIL).join(escapeAttr(supportEmail));
  }
  return html;
}

/** A built document with the configured support address in place; config and dates still to fill in. */
function readTemplate(file: string, publicConfig: Record<string, unknown>): string | null {
  if (!existsSync(file)) return null;
  return withSupportEmail(readFileSync(file, 'utf8'), publicConfig);
}

/**
 * A template with this deployment's config and today's date filled in; for a landing experiment's arm
 * (issue 48) its copy in the config too (the app renders what the server did), and the canonical link
 * to the page's own address: the arm is the same page, never a page of its own.
 */
function fillHtml(
  template: string,
  publicConfig: Record<string, unknown>,
  dates: PageDates,
  landingCopy?: ArmContent,
): string {
  const config = { ...publicConfig, dates, ...(landingCopy ? { landingCopy } : {}) };
  const canonical = landingCopy ? '<link rel="canonical" href="/" />\n    ' : '';
  return template
    .replace(
      '<!--app-config-->',
      `${canonical}<meta name="app-config" content="${escapeAttr(JSON.stringify(config))}" />`,
    )
    .split(PAGE_DATE_TOKENS.today)
    .join(escapeAttr(dates.today))
    .split(PAGE_DATE_TOKENS.year)
    .join(escapeAttr(dates.year));
}

/** The server-side renderer's entry (web/src/entry-server.tsx). */
type Renderer = {
  renderLanding(step: LandingStep, copy?: ArmContent): Promise<string>;
  render(url: string, copy?: ArmContent): Promise<string>;
};

/** A filled-in page as served from memory: compressed up to where the answer's own part goes. */
function compressDocument(html: string): Document {
  const { head, end } = splitAtBodyEnd(html);
  return { head: compressHead(head), end };
}

function fillDocument(template: string, publicConfig: Record<string, unknown>, dates: PageDates): Document {
  return compressDocument(fillHtml(template, publicConfig, dates));
}

/**
 * The documents of one build. They change once a day (the date they show), so each is filled in and
 * compressed on its first request of the day, then served from memory.
 */
function documentStore(opts: SpaOptions) {
  const templates = new Map<string, string>();
  const load = (key: string, file: string) => {
    const template = readTemplate(file, opts.publicConfig);
    if (template !== null) templates.set(key, template);
  };
  load('index', path.join(opts.distDir, 'index.html'));
  const pagesFile = path.join(opts.distDir, 'prerendered', 'pages.json');
  const pages: Record<string, string> = existsSync(pagesFile)
    ? JSON.parse(readFileSync(pagesFile, 'utf8'))
    : {};
  for (const [pagePath, file] of Object.entries(pages)) {
    load(pagePath, path.join(opts.distDir, 'prerendered', file));
  }
  let day = '';
  let filled = new Map<string, Document>();
  // The server-side renderer (web/src/entry-server.tsx, built beside dist as dist-ssr), loaded on first use.
  const ssrEntry = `${path.resolve(opts.distDir)}-ssr/entry-server.js`;
  let renderer: Promise<Renderer> | undefined;
  const ROOT_OPEN = '<div id="root">';
  const withRoot = (template: string, rootHtml: string) => {
    const open = template.indexOf(ROOT_OPEN) + ROOT_OPEN.length;
    const close = template.lastIndexOf('</div>', template.indexOf('</body>'));
    return `${template.slice(0, open)}${rootHtml}${template.slice(close)}`;
  };
  // Issue 48: each arm's landing document, rendered on the server on its first request of the day (the
  // same renderer as the build's, with the arm's copy), compressed, then served from memory like the
  // prerendered ones. Keyed by the content's hash: arms with the same content share one.
  const armDocuments = new Map<string, Promise<Document | null>>();
  let armDay = '';
  /**
   * The landing template with the server renderer's page in its root (`render` picks what to render and
   * may add to the head), filled in for today; null when the app is not built.
   */
  const renderedLanding = async (
    render: (r: Renderer) => Promise<string>,
    copy: ArmContent | undefined,
    head = '',
  ): Promise<string | null> => {
    const template = templates.get('/');
    if (!template || !existsSync(ssrEntry)) return null;
    renderer ??= import(pathToFileURL(ssrEntry).href);
    const rootHtml = withSupportEmail(await render(await renderer), opts.publicConfig);
    const html = withRoot(template, rootHtml).replace('</head>', `${head}</head>`);
    return fillHtml(html, opts.publicConfig, pageDates(new Date(), opts.timeZone), copy);
  };
  const armHtml = (content: ArmContent) => renderedLanding((r) => r.render('/', content), content);
  return {
    hasBuild: templates.has('index'),
    /** The landing document with `rootHtml` as its page and the step for the app to take over. */
    async landing(step: LandingStep, formToken: string, copy?: ArmContent): Promise<string | null> {
      const stepMeta = `<meta name="${LANDING_STEP_META}" content="${escapeAttr(JSON.stringify(step))}" />`;
      const html = await renderedLanding((r) => r.renderLanding(step, copy), copy, `  ${stepMeta}\n  `);
      if (html === null) return null;
      const { head, end } = splitAtBodyEnd(html);
      return `${head}${formTokenField(formToken)}${end}`;
    },
    /** The landing page rendered with an arm's content, as HTML; null when the app is not built. */
    armHtml,
    /** The landing document of a landing experiment's arm (issue 48); null when the app is not built. */
    arm(content: ArmContent, contentHash: string): Promise<Document | null> {
      const dates = pageDates(new Date(), opts.timeZone);
      if (dates.today !== armDay) {
        armDay = dates.today;
        armDocuments.clear();
      }
      let doc = armDocuments.get(contentHash);
      if (!doc) {
        doc = armHtml(content).then((html) => (html === null ? null : compressDocument(html)));
        armDocuments.set(contentHash, doc);
        // A failed render is tried again by the next request.
        doc.catch(() => armDocuments.delete(contentHash));
      }
      return doc;
    },
    /** The prerendered page path (trailing slash tolerated), "*" (not found) or SIGNED_IN_DOCUMENT if
     * built, else index. */
    get(key: string): Document {
      const dates = pageDates(new Date(), opts.timeZone);
      if (dates.today !== day) {
        day = dates.today;
        filled = new Map();
      }
      const name = [key, key.replace(/(.)\/$/, '$1')].find((k) => templates.has(k)) ?? 'index';
      let doc = filled.get(name);
      if (!doc) {
        doc = fillDocument(templates.get(name) ?? '', opts.publicConfig, dates);
        filled.set(name, doc);
      }
      return doc;
    },
  };
}

export const spaPlugin = fp(
  async (app: FastifyInstance, opts: SpaOptions) => {
    const documents = documentStore(opts);
    const hasBuild = documents.hasBuild;
    app.decorate('renderLanding', (step: LandingStep, formToken: string, copy?: ArmContent) =>
      documents.landing(step, formToken, copy),
    );
    // The preview is the page without its app: it is whole as rendered, and the editor's frame runs no script.
    app.decorate('renderArmPreview', async (content: ArmContent) => {
      const html = await documents.armHtml(content);
      return html === null
        ? null
        : html
            .replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, '')
            .replace(/<link\b[^>]*\brel="modulepreload"[^>]*>/gi, '');
    });

    if (hasBuild) {
      await app.register(fastifyStatic, {
        root: opts.distDir,
        index: false,
        wildcard: true,
        // The build wrote .br and .gz beside each file (web/compress-dist.mjs): served when accepted.
        preCompressed: true,
        // dist/.vite holds the build manifest, a build-time file (web/report-bundle.mjs): not served.
        dotfiles: 'ignore',
        setHeaders(reply, filePath) {
          // Vite names assets by content hash: cache them for a year; everything else revalidates.
          const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
          reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
        },
      });
    }

    const sendDocument = async (
      req: FastifyRequest,
      reply: FastifyReply,
      doc: Document,
      status = 200,
      tokenArm: ServedLandingArm['tokenArm'] = null,
    ) => {
      const tail = `${formTokenField(await opts.issueFormToken(tokenArm))}${doc.end}`;
      reply
        .code(status)
        .type('text/html; charset=utf-8')
        // Each answer carries its own form token: never stored by a shared cache.
        .header('cache-control', 'no-cache, private')
        .header('vary', 'accept-encoding');
      const accepted = String(req.headers['accept-encoding'] ?? '');
      if (/\bbr\b/.test(accepted))
        return reply.header('content-encoding', 'br').send(brotliWithTail(doc.head, tail));
      if (/\bgzip\b/.test(accepted))
        return reply.header('content-encoding', 'gzip').send(gzipWithTail(doc.head, tail));
      return reply.send(`${doc.head.head}${tail}`);
    };
    // '/' is the dist folder itself: @fastify/static would answer 403 for a directory.
    // Issue 48: in a landing experiment, the arm's own document (its copy in the first response, no
    // script changes it), and a form token that carries the arm to the lead. Every document is already
    // `Cache-Control: private`: no shared cache hands one visitor's arm to another.
    if (hasBuild)
      app.get('/', async (req, reply) => {
        const served = opts.landingArm ? await opts.landingArm(req) : null;
        const doc = served ? await documents.arm(served.content, served.contentHash) : null;
        if (served && doc) return sendDocument(req, reply, doc, 200, served.tokenArm);
        return sendDocument(req, reply, documents.get('/'));
      });

    app.setNotFoundHandler(
      {
        preHandler: app.rateLimit ? app.rateLimit({ max: 300, timeWindow: '1 minute' }) : undefined,
      },
      (req, reply) => {
        // The path as the router decoded it (for Allow), and normalised (is it an API path at all?).
        const raw = req.url.split('?')[0] ?? '/';
        let pathname = raw;
        try {
          pathname = decodeURIComponent(raw);
        } catch {
          // malformed escape: keep it raw
        }
        const scope = normalisedPath(req);
        const isApi = scope === '/api' || scope.startsWith('/api/');
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
        // A page: its prerendered document, or the app shell (admin), painted "Checking authentication..."
        // behind sign-in (ADR 071). The app renders its not-found page for any other path; the status says
        // so too.
        if (isSignedInPagePath(pathname)) return sendDocument(req, reply, documents.get(SIGNED_IN_DOCUMENT));
        if (isPagePath(pathname)) return sendDocument(req, reply, documents.get(pathname));
        return sendDocument(req, reply, documents.get('*'), 404);
      },
    );
  },
  { name: 'spa' },
);
