import type { FastifyInstance } from 'fastify';
import { visitorLeadBody } from './fixtures';

// Submitting a lead as a real visitor does (issue 33): the page's form token, some seconds on the page,
// a browser's user agent and an address of its own. Tests that expect a lead to be delivered (or sold)
// submit this way; lead quality holds or rejects anything else, as it should.

export const BROWSER_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** Seconds a visitor spends on the page before submitting (more than the 3 s the rules ask). */
export const SECONDS_ON_PAGE = 6;

/** The app's clock, moved forward by the test instead of waiting (BuildOptions.clock). */
export function testClock() {
  let offsetMs = 0;
  return {
    now: () => new Date(Date.now() + offsetMs),
    advance(seconds: number) {
      offsetMs += seconds * 1000;
    },
  };
}
export type TestClock = ReturnType<typeof testClock>;

let visitors = 0;
/** A client address of its own per visitor (documentation ranges, never a real host). */
export function visitorAddress(): string {
  visitors += 1;
  return `198.18.${(visitors >> 8) & 255}.${visitors & 255}`;
}

/** A form token, as the page (or GET /api/form-token) gives it. */
export async function formToken(app: FastifyInstance): Promise<string> {
  const res = await app.inject({ method: 'GET', url: '/api/form-token' });
  if (res.statusCode !== 200) throw new Error(`form token: ${res.statusCode} ${res.body}`);
  return (res.json() as { formToken: string }).formToken;
}

/** The lead through a JSON door as a visitor sends it, after `SECONDS_ON_PAGE` on the test clock. */
export async function submitAsVisitor(
  app: FastifyInstance,
  clock: TestClock,
  body: Record<string, unknown>,
  options: { url?: string; headers?: Record<string, string>; remoteAddress?: string } = {},
) {
  const token = await formToken(app);
  clock.advance(SECONDS_ON_PAGE);
  return app.inject({
    method: 'POST',
    url: options.url ?? '/api/submit-search',
    payload: { ...body, formToken: token },
    headers: { 'user-agent': BROWSER_UA, ...options.headers },
    remoteAddress: options.remoteAddress ?? visitorAddress(),
  });
}

/**
 * Form tokens for a load over real HTTP: fetched ahead, each handed out only once it is `SECONDS_ON_PAGE`
 * old (a condition waited on, as a visitor takes that long to fill the form in).
 */
export function tokenPool(baseUrl: () => string, reserve = 400) {
  const tokens: { token: string; at: number }[] = [];
  let filling: Promise<void> | undefined;
  const fill = async () => {
    while (tokens.length < reserve) {
      const res = await fetch(`${baseUrl()}/api/form-token`, { signal: AbortSignal.timeout(10_000) });
      if (!res.ok) throw new Error(`form token: ${res.status}`);
      tokens.push({ token: ((await res.json()) as { formToken: string }).formToken, at: Date.now() });
    }
  };
  return {
    /** The next token old enough; null once `running` says the load has stopped. */
    async take(running: () => boolean = () => true): Promise<string | null> {
      while (running()) {
        if (tokens.length < reserve / 2 && !filling) {
          filling = fill()
            .catch(() => {})
            .finally(() => {
              filling = undefined;
            });
        }
        const first = tokens[0];
        if (first && Date.now() - first.at >= SECONDS_ON_PAGE * 1000) {
          tokens.shift();
          return first.token;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      return null;
    },
  };
}

/**
 * `count` visitors' leads posted at once over real HTTP to a server that trusts the loopback proxy
 * (TRUST_PROXY=127.0.0.1): each with a token fetched first and `SECONDS_ON_PAGE` old, a browser and an
 * address of its own. Answers the HTTP statuses.
 */
export async function postVisitorLeads(baseUrl: string, count: number): Promise<number[]> {
  const pool = tokenPool(() => baseUrl, count);
  const tokens: string[] = [];
  for (let i = 0; i < count; i++) tokens.push((await pool.take()) ?? '');
  return Promise.all(
    tokens.map((formToken) =>
      fetch(`${baseUrl}/api/submit-search`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': BROWSER_UA,
          'x-forwarded-for': visitorAddress(),
        },
        body: JSON.stringify({ ...visitorLeadBody(), formToken }),
      }).then((r) => r.status),
    ),
  );
}
