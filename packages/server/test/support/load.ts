import { visitorLeadBody } from './fixtures';
import { BROWSER_UA, tokenPool, visitorAddress } from './visitor';

// A steady stream of lead submissions from `workers` loops, each as a visitor sends it (issue 33: the
// page's form token after some seconds on the page, a browser, an address of its own — the server must
// trust the loopback proxy, TRUST_PROXY=127.0.0.1, for X-Forwarded-For), each retried with its own Idempotency-Key as
// the web form does, waiting as a 503's Retry-After asks, recording every outcome: what was acknowledged (200 and its id), refused (503 and
// the like) or lost on the wire (no answer at all).

export type LoadResult = {
  acknowledged: { id: string; email: string }[];
  statuses: Map<number, number>;
  /** 503 answers not in the app's error format or without Retry-After. */
  malformed503: number;
  /** Requests that got no HTTP answer (connection reset or refused). */
  noAnswer: { message: string; code: string | undefined; syscall: string | undefined }[];
};

export function startLeadLoad(baseUrl: () => string, workers = 6) {
  const result: LoadResult = { acknowledged: [], statuses: new Map(), noAnswer: [], malformed503: 0 };
  let running = true;
  const tokens = tokenPool(baseUrl);
  const loops = Array.from({ length: workers }, async (_, w) => {
    let n = 0;
    while (running) {
      const formToken = await tokens.take(() => running);
      if (formToken === null) break;
      const body = { ...visitorLeadBody(), formToken };
      const key = `load-${w}-${n++}-${Math.random().toString(36).slice(2)}`;
      try {
        const res = await fetch(`${baseUrl()}/api/submit-search`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'idempotency-key': key,
            'user-agent': BROWSER_UA,
            'x-forwarded-for': visitorAddress(),
          },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(30_000),
        });
        result.statuses.set(res.status, (result.statuses.get(res.status) ?? 0) + 1);
        const answer = (await res.json()) as { id?: string; error?: string };
        if (res.status === 503 && (answer.error !== 'service_unavailable' || !res.headers.get('retry-after')))
          result.malformed503 += 1;
        if (res.status === 200 && answer.id) result.acknowledged.push({ id: answer.id, email: body.email });
        // A well-behaved client (a proxy, the web form's retry) waits as long as Retry-After says.
        const retryAfter = Number(res.headers.get('retry-after'));
        if (res.status === 503 && retryAfter > 0) {
          const until = Date.now() + Math.min(retryAfter, 3) * 1000;
          while (running && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
        }
      } catch (err) {
        const cause = (err as { cause?: { code?: string; message?: string; syscall?: string } }).cause;
        result.noAnswer.push({
          message: cause?.message ?? String(err),
          code: cause?.code,
          syscall: cause?.syscall,
        });
        // The server is gone (stopped): do not spin.
        await new Promise((r) => setTimeout(r, 20));
      }
    }
  });
  return {
    result,
    async stop() {
      running = false;
      await Promise.all(loops);
      return result;
    },
  };
}
