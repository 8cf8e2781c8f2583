import { attributionFromLanding } from '@uf/shared/attribution';
import { BENEFICIARY_NOT_SPECIFIED } from '@uf/shared/constants';
import { suggestEmail } from '@uf/shared/email-suggestion';
import { ERROR_CODES } from '@uf/shared/errors';
import { LANDING_FORM_FIELDS, type LandingAlert, type LandingStep } from '@uf/shared/landing-step';
import { EMAIL_PATTERN, EMPTY_LEAD_FORM } from '@uf/shared/lead.schema';
import { LEAD_FORM_NOTICES, PUBLIC_TOASTS } from '@uf/shared/messages';
import { FORM_TOKEN_FIELD, HONEYPOT_FIELD } from '@uf/shared/quality-fields';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { toErrorResponse } from '../errors';
import type { ServedLandingArm } from './spa';

// The landing page's form posted by the browser itself (ADR 057): when the app's script did not run
// (blocked, failed, not there yet), `POST /` takes the same lead through the same operation as
// POST /api/submit-search (same checks, consent receipt and attribution) and answers with the landing page
// rendered on the server in the step the visitor reached: the form again with the spec's messages, the
// beneficiary question, or the Congratulations screen. Never GET: personal data stays out of URLs.

export type LandingFormOptions = {
  /** The lead.submit operation, as the REST door runs it (sets the owner cookie on the reply). */
  submitLead(
    req: FastifyRequest,
    reply: FastifyReply,
    input: Record<string, unknown>,
  ): Promise<{ id: string }>;
  /** The beneficiary update, as PATCH /api/leads/{id}/beneficiary runs it (the owner cookie decides). */
  setBeneficiary(req: FastifyRequest, reply: FastifyReply, id: string, beneficiary: string): Promise<unknown>;
  /** The state the server derived for the lead (null when unknown). */
  leadState(req: FastifyRequest, reply: FastifyReply, id: string): Promise<string | null>;
  /** The landing page rendered in a step with a form token, as a complete HTML document (the spa plugin). */
  renderLanding(
    step: LandingStep,
    formToken: string,
    copy?: ServedLandingArm['content'],
  ): Promise<string | null>;
  /** A new form token (issue 33), carrying the landing experiment's arm (issue 48). */
  issueFormToken(arm?: ServedLandingArm['tokenArm']): Promise<string>;
  /**
   * Issue 48: the visitor's arm in a landing experiment (the same hash as the page they posted from, never
   * counted for a POST), so the answer shows the arm's copy; null: the page as built.
   */
  landingArm?(req: FastifyRequest): Promise<ServedLandingArm | null>;
};

const FORM_BODY_LIMIT = 16 * 1024;
const LEAD_FIELDS = Object.keys(EMPTY_LEAD_FORM).filter((k) => k !== 'consentGiven');

/**
 * A form post another site's page made without an Origin header (a browser that strips it): its fetch
 * metadata says so. A foreign Origin never gets here — the app-wide Origin check (origin-check.ts)
 * refuses every state-changing request from another site first.
 */
function isCrossSiteWithoutOrigin(req: FastifyRequest): boolean {
  const site = req.headers['sec-fetch-site'];
  return !req.headers.origin && site !== undefined && site !== 'same-origin' && site !== 'none';
}

/**
 * The campaign of the visit: the page that posted the form is the landing URL with its query; after a
 * refused post the page carries the first post's campaign in a hidden field instead.
 */
function attributionOf(req: FastifyRequest, carried: unknown): Record<string, string> {
  if (typeof carried === 'string' && carried !== '') {
    try {
      const parsed: unknown = JSON.parse(carried);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
        return parsed as Record<string, string>;
    } catch {
      // not JSON: read the page's address instead
    }
  }
  try {
    const page = new URL(String(req.headers.referer ?? ''));
    return page.host === req.host ? attributionFromLanding(page.search, '', req.host) : {};
  } catch {
    return {};
  }
}

/** Issue 33: "Did you mean …?" for a likely typo of a major provider, offered on the form shown again. */
function emailSuggestionOf(email: string | undefined): { emailSuggestion?: string } {
  const value = email?.trim() ?? '';
  const suggestion = EMAIL_PATTERN.test(value) ? suggestEmail(value) : null;
  return suggestion ? { emailSuggestion: suggestion } : {};
}

function alertFor(code: string, status: number): LandingAlert | undefined {
  if (code === ERROR_CODES.duplicateEmail) return PUBLIC_TOASTS.duplicateEmail;
  if (code === ERROR_CODES.ageRestriction) return PUBLIC_TOASTS.ageRestriction;
  // Field messages speak for themselves; anything else is the spec's generic failure.
  if (code === ERROR_CODES.validation && status === 400) return undefined;
  return PUBLIC_TOASTS.submitFailed;
}

export async function landingFormPlugin(app: FastifyInstance, opts: LandingFormOptions) {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
    (_req, body, done) => {
      const fields: Record<string, string> = {};
      for (const [name, value] of new URLSearchParams(String(body)))
        if (!(name in fields)) fields[name] = value;
      done(null, fields);
    },
  );

  /**
   * The page in its step. The form shown again after a refused post keeps the token it was posted with
   * (issue 33: the time on the page counts from the first page, not from this answer); any other step
   * gets a new one.
   */
  const answer = async (
    req: FastifyRequest,
    reply: FastifyReply,
    status: number,
    step: LandingStep,
    carriedToken?: string,
  ) => {
    const served = opts.landingArm ? await opts.landingArm(req) : null;
    const html = await opts.renderLanding(
      step,
      carriedToken || (await opts.issueFormToken(served?.tokenArm ?? null)),
      served?.content,
    );
    // What the visitor entered is in the page: never stored by a cache.
    reply.header('cache-control', 'no-store');
    if (html === null) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The web app is not built. Run `npm start`.');
    }
    return reply.code(status).type('text/html; charset=utf-8').send(html);
  };

  app.post('/', async (req, reply) => {
    if (isCrossSiteWithoutOrigin(req)) {
      return reply
        .code(403)
        .header('cache-control', 'no-store')
        .send({ error: ERROR_CODES.forbidden, message: 'Cross-site requests are not allowed' });
    }
    const body = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>;
    const text = (name: string) => (typeof body[name] === 'string' ? (body[name] as string) : '');

    if (text(LANDING_FORM_FIELDS.step) === 'beneficiary') {
      const id = text(LANDING_FORM_FIELDS.leadId);
      const beneficiary = text(LANDING_FORM_FIELDS.skip)
        ? BENEFICIARY_NOT_SPECIFIED
        : text(LANDING_FORM_FIELDS.beneficiary);
      try {
        await opts.setBeneficiary(req, reply, id, beneficiary);
        return answer(req, reply, 200, {
          step: 'done',
          leadId: id,
          state: await opts.leadState(req, reply, id),
        });
      } catch (err) {
        const { status } = toErrorResponse(err);
        if (status >= 500) req.log.error({ err }, 'beneficiary form post failed');
        const state = await opts.leadState(req, reply, id).catch(() => null);
        return answer(req, reply, status, {
          step: 'beneficiary',
          leadId: id,
          state,
          alert: PUBLIC_TOASTS.beneficiaryFailed,
        });
      }
    }

    const values = Object.fromEntries(LEAD_FIELDS.map((name) => [name, text(name)]));
    // The operation's schema cleans it (attributionField), as for the API.
    const attribution = attributionOf(req, body[LANDING_FORM_FIELDS.attribution]);
    try {
      const { id } = await opts.submitLead(req, reply, {
        ...values,
        consentGiven: text('consentGiven') === 'true' ? 'true' : 'false',
        attribution,
        // Issue 33: the page's form token and the honeypot, as the app would send them.
        [FORM_TOKEN_FIELD]: text(FORM_TOKEN_FIELD),
        [HONEYPOT_FIELD]: text(HONEYPOT_FIELD),
      });
      return answer(req, reply, 200, {
        step: 'beneficiary',
        leadId: id,
        state: await opts.leadState(req, reply, id),
      });
    } catch (err) {
      const { status, body: error } = toErrorResponse(err);
      if (status >= 500) req.log.error({ err }, 'lead form post failed');
      const errors: Record<string, string> = Object.fromEntries(
        (error.fieldErrors ?? []).map((e) => [e.field, e.message]),
      );
      // Issue 37: the form comes back with the consent box unticked (never pre-ticked); a visitor who had
      // ticked it learns so now, beside it, not after the next post. And a duplicate e-mail says beside the
      // field what to do, where the alert only says what happened.
      if (text('consentGiven') === 'true' && !errors.consentGiven)
        errors.consentGiven = LEAD_FORM_NOTICES.consentAgain;
      if (error.error === ERROR_CODES.duplicateEmail) errors.email = LEAD_FORM_NOTICES.duplicateEmail;
      const alert = alertFor(error.error, status);
      return answer(
        req,
        reply,
        status,
        {
          step: 'form',
          values,
          errors,
          attribution,
          ...(alert ? { alert } : {}),
          ...emailSuggestionOf(values.email),
        },
        // Only a token of the right shape is carried into the page; the submit checks it for real.
        /^[\w.-]{1,200}$/.test(text(FORM_TOKEN_FIELD)) ? text(FORM_TOKEN_FIELD) : undefined,
      );
    }
  });
}
