import http from 'node:http';
import https from 'node:https';
import { type LookupAll, outboundAgentFor, outboundUrlProblem, singleUseAgentFor } from './outbound-address';

// One outbound HTTP exchange, as webhooks (ADR 062) and lead buyers (ADR 069) make them: no redirect is
// followed, the address connected to is checked just before connecting (ADR 066), the answer's first
// `excerptBytes` are kept and the rest never read (the socket is closed), and the whole exchange ends
// after `timeoutMs` — a receiver that hangs or streams megabytes costs its own attempt only.
//
// An answer is whole or it is marked `cut` (issue 47): a body that ends before its Content-Length or
// without its final chunk, a reset or an error after the answer began, or the time running out while it
// was arriving. Our own stop at `excerptBytes` is not a cut (the answer was arriving whole; we chose not
// to read the rest): it is `truncated`, and its excerpt is what rules read.
//
// A request that fails on a reused keep-alive connection before any byte of the answer arrived (the
// receiver closed the idle connection as we sent on it: ECONNRESET, EPIPE, "socket hang up") is sent once
// more on a new connection, and `retried` says so: the receiver never read the first one. Node's own
// documentation describes that race; the agents' idle timeout (outbound-address.ts) makes it rare.

export type SendResult = {
  status?: number;
  excerpt?: string;
  error?: string;
  /** No answer within timeoutMs. */
  timedOut?: boolean;
  /** The answer began (a status arrived) but did not end whole: the receiver may have acted on it. */
  cut?: boolean;
  /** The answer was longer than excerptBytes: only its start was read. */
  truncated?: boolean;
  /** Sent a second time on a new connection, after the reused one failed before any answer. */
  retried?: string;
  ms: number;
};

export type SendOptions = {
  allowPrivateUrls: boolean;
  timeoutMs: number;
  excerptBytes: number;
  lookup?: LookupAll;
  signal?: AbortSignal;
};

type Request = { method: string; url: string; headers: Record<string, string>; body: string | null };

/** Errors of a keep-alive connection the receiver closed while idle, as the request went out on it. */
const STALE_SOCKET_CODES = new Set(['ECONNRESET', 'EPIPE']);

export function sendOnce(request: Request, options: SendOptions): Promise<SendResult> {
  const problem = outboundUrlProblem(request.url, options.allowPrivateUrls);
  if (problem) return Promise.resolve({ error: problem, ms: 0 });
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  return exchange(request, options, started, false).then((first) => {
    if (!('staleSocket' in first)) return { ...first, ms: ms() };
    return exchange(request, options, started, true).then((second) => ({
      ...('staleSocket' in second ? { error: second.staleSocket } : second),
      retried: first.staleSocket,
      ms: ms(),
    }));
  });
}

type Exchanged = Omit<SendResult, 'ms' | 'retried'> | { staleSocket: string };

function exchange(
  request: Request,
  options: SendOptions,
  started: number,
  fresh: boolean,
): Promise<Exchanged> {
  const url = new URL(request.url);
  const isHttps = url.protocol === 'https:';
  return new Promise((resolve) => {
    let settled = false;
    /** The answer's status, once it began. */
    let responded: number | undefined;
    const finish = (result: Exchanged) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // One signal serves every attempt of the process: a listener left on it would pile up (and each
      // addEventListener walks the list).
      options.signal?.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const headers: Record<string, string | number> = { ...request.headers };
    if (request.body !== null) headers['content-length'] = Buffer.byteLength(request.body);
    const agentOptions = { allowPrivate: options.allowPrivateUrls, lookup: options.lookup };
    const req = (isHttps ? https : http).request(
      url,
      {
        method: request.method,
        // The second try takes a connection of its own: the shared agent could hand out another stale one.
        agent: fresh ? singleUseAgentFor(url, agentOptions) : outboundAgentFor(url, agentOptions),
        headers,
      },
      (res) => {
        responded = res.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let size = 0;
        const excerpt = () =>
          // Text PostgreSQL can store: invalid UTF-8 becomes U+FFFD, NUL characters are dropped.
          Buffer.concat(chunks).subarray(0, options.excerptBytes).toString('utf8').replaceAll('\u0000', '');
        const whole = () => finish({ status: res.statusCode, excerpt: excerpt() });
        const cut = (why: string) =>
          finish({
            status: res.statusCode,
            excerpt: excerpt(),
            cut: true,
            error: `the answer was cut: ${why}`,
          });
        res.on('data', (chunk: Buffer) => {
          if (size >= options.excerptBytes) return;
          chunks.push(chunk);
          size += chunk.length;
          if (size >= options.excerptBytes) {
            finish({ status: res.statusCode, excerpt: excerpt(), truncated: true });
            res.destroy();
          }
        });
        res.on('end', () => (res.complete ? whole() : cut('the connection closed before its end')));
        // Node says 'aborted' when the connection closed before the body's end.
        res.on('error', (err: NodeJS.ErrnoException) =>
          cut(
            err.message === 'aborted'
              ? 'the connection closed before its end'
              : err.message || String(err.code),
          ),
        );
        res.on('close', () => (res.complete ? whole() : cut('the connection closed before its end')));
      },
    );
    const timer = setTimeout(
      () => {
        finish(
          responded !== undefined
            ? {
                status: responded,
                cut: true,
                error: `the answer was cut: it was still arriving after ${options.timeoutMs / 1000} s`,
              }
            : { error: `no answer within ${options.timeoutMs / 1000} s`, timedOut: true },
        );
        req.destroy();
      },
      Math.max(0, options.timeoutMs - (performance.now() - started)),
    );
    const onAbort = () => {
      finish({ error: 'cut short: the server was stopping' });
      req.destroy();
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (err: NodeJS.ErrnoException) => {
      const message = err.message || String(err.code);
      if (responded !== undefined) {
        return finish({ status: responded, cut: true, error: `the answer was cut: ${message}` });
      }
      if (!fresh && req.reusedSocket && err.code && STALE_SOCKET_CODES.has(err.code)) {
        return finish({ staleSocket: message });
      }
      finish({ error: message });
    });
    req.end(request.body ?? undefined);
  });
}
