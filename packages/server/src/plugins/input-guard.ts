import { ERROR_CODES } from '@uf/shared/errors';
import { findUnsafeText } from '@uf/shared/text-safety';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../errors';

// Two rules for every route, in one place (issue 13):
// - A POST (or PATCH, DELETE) that needs no input may arrive with an empty body, with or without a JSON
//   content type — the way clients send a bodyless POST (backup, logout). Fastify's default JSON parser
//   answers 400 "Body cannot be empty" instead.
// - No string in the body, the query or the path may carry NUL, other control characters or a lone
//   surrogate (shared/text-safety): 400 naming the field, never the 500 PostgreSQL's refusal of NUL
//   would become. tRPC inputs get the same check in its base middleware (trpc.ts).

export function assertSafeInput(value: unknown, where: string) {
  const found = findUnsafeText(value, where === 'body' ? '' : where);
  if (found) throw new AppError(ERROR_CODES.validation, found.message, [found]);
}

export const inputGuardPlugin = fp(
  async (app: FastifyInstance) => {
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') return done(null, undefined);
      return parseJson(req, text, done);
    });
    app.addHook('preValidation', async (req) => {
      assertSafeInput(req.params, 'path');
      assertSafeInput(req.query, 'query');
      assertSafeInput(req.body, 'body');
    });
  },
  { name: 'input-guard' },
);
