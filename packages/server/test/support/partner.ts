import type { FastifyInstance } from 'fastify';

let counter = 0;

/** A valid partner API lead; each call gets its own phone number unless one is given. */
export function partnerLeadBody(overrides: Record<string, unknown> = {}) {
  counter += 1;
  return {
    firstName: 'Ann',
    lastName: 'Lee',
    streetAddress: '5 Oak Ave',
    city: 'Austin',
    state: 'TX',
    phone: `(512) 555-${String(1000 + (counter % 9000)).slice(-4)}`,
    birthMonth: 2,
    birthDay: '14',
    birthYear: 1968,
    ...overrides,
  };
}

/** POST /api/partner/leads with a Bearer key (none when null). */
export function postPartnerLead(
  app: FastifyInstance,
  apiKey: string | null,
  body: unknown,
  headers: Record<string, string> = {},
) {
  return app.inject({
    method: 'POST',
    url: '/api/partner/leads',
    payload: body as object,
    headers: { ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}), ...headers },
  });
}
