import { withMetaCookies } from '@uf/shared/attribution';
import { withConsentEvidence } from '@uf/shared/consent-evidence.schema';
import { beneficiaryOutputSchema, idOutputSchema, publicLeadOutputSchema } from '@uf/shared/lead.output';
import { createLeadSubmissionSchema, leadBeneficiaryInputSchema, leadIdSchema } from '@uf/shared/lead.schema';
import { formTokenOutputSchema } from '@uf/shared/quality.output';
import { withQualityEvidence } from '@uf/shared/quality-evidence.schema';
import * as leads from '../leads/lead.service';
import { isSecureCookie } from '../plugins/secure-cookies';
import { clientIp, hasGpcSignal, headerValue, pageUrlOf, userAgent } from './request-meta';
import { anonymousProcedure, mutationOf, operation, restAt, router } from './trpc';

export const LEAD_OWNER_COOKIE = 'lead_owner';

/** The submission's Idempotency-Key header (as on the partner API), when it is a sensible token. */
function idempotencyKeyOf(req: {
  headers: Record<string, string | string[] | undefined>;
}): string | undefined {
  const value = req.headers['idempotency-key'];
  const key = Array.isArray(value) ? value[0] : value;
  return key && /^[\x21-\x7e]{8,200}$/.test(key) ? key : undefined;
}

/** POST /api/submit-search (its schema names the support address in its messages). */
export function submitLeadOperation(supportEmail: string) {
  const schema = withQualityEvidence(withConsentEvidence(createLeadSubmissionSchema(supportEmail)));
  return operation(schema, async (ctx, input) => {
    const ipAddress = clientIp(ctx.req);
    const country = await ctx.services.analytics.lookupCountry({
      headerValue: headerValue(ctx.req, ctx.config.analyticsCountryHeader),
      ip: ipAddress,
    });
    const { id, ownerToken } = await ctx.services.leads.submit(input, {
      ipAddress,
      userAgent: userAgent(ctx.req),
      secChUa: headerValue(ctx.req, 'sec-ch-ua'),
      timeZone: ctx.config.timeZone,
      pageUrl: pageUrlOf(ctx.req, input.pageUrl),
      // Without TRUSTEDFORM_ENABLED no script ran, so a certificate URL cannot be this visit's.
      trustedFormUrl: (ctx.config.trustedFormEnabled && input.trustedFormUrl) || null,
      gpc: hasGpcSignal(ctx.req),
      // Meta's _fbc/_fbp cookies ride on the request itself, so every door carries them (issue 24).
      attribution: withMetaCookies(input.attribution, ctx.req.cookies),
      host: ctx.req.host,
      country,
      sessionId: input.sessionId ?? null,
      retry: {
        ownerToken: ctx.req.cookies[LEAD_OWNER_COOKIE],
        idempotencyKey: idempotencyKeyOf(ctx.req),
      },
    });
    ctx.reply.setCookie(LEAD_OWNER_COOKIE, ownerToken, {
      httpOnly: true,
      sameSite: 'strict',
      secure: isSecureCookie(ctx.req, ctx.config.cookieSecure),
      // The whole site: the landing form posted without the app (POST /) proves ownership too (ADR 057).
      path: '/',
      maxAge: 60 * 60 * 24,
    });
    return { id };
  });
}

export function createLeadRouter(submit: ReturnType<typeof submitLeadOperation>) {
  return router({
    submit: mutationOf(submit, restAt('POST', '/api/submit-search'), idOutputSchema),
    // Issue 33: a form token for a page that came without one (the app reached the form by navigating
    // inside itself); a page served by the server carries its own.
    formToken: anonymousProcedure
      .meta(restAt('GET', '/api/form-token'))
      .output(formTokenOutputSchema)
      .query(async ({ ctx }) => {
        ctx.reply.header('cache-control', 'no-store');
        return { formToken: await ctx.services.quality.issueToken() };
      }),
    byId: anonymousProcedure
      .meta(restAt('GET', '/api/leads/:id'))
      .input(leadIdSchema)
      .output(publicLeadOutputSchema)
      .query(({ ctx, input }) => leads.getPublicLead(ctx.services.em(), input.id)),
    setBeneficiary: anonymousProcedure
      .meta(restAt('PATCH', '/api/leads/:id/beneficiary'))
      .input(leadBeneficiaryInputSchema)
      .output(beneficiaryOutputSchema)
      .mutation(({ ctx, input }) =>
        leads.setBeneficiary(
          ctx.services.db.pool,
          input.id,
          input.beneficiary,
          ctx.req.cookies[LEAD_OWNER_COOKIE],
        ),
      ),
  });
}
