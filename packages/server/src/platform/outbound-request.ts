import http from 'node:http';
import https from 'node:https';
import { type LookupAll, outboundAgentFor, outboundUrlProblem } from './outbound-address';

// One outbound HTTP exchange, as webhooks (ADR 062) and lead buyers (ADR 069) make them: no redirect is
// followed, the address connected to is checked just before connecting (ADR 066), the answer's first
// `excerptBytes` are kept and the rest never read (the socket is closed), and the whole exchange ends
// after `timeoutMs` — a receiver that hangs or streams megabytes costs its own attempt only.

export type SendResult = {
  status?: number;
  excerpt?: string;
  error?: string;
  /** No answer within timeoutMs. */
  timedOut?: boolean;
  ms: number;
};

export type SendOptions = {
  allowPrivateUrls: boolean;
  timeoutMs: number;
  excerptBytes: number;
  lookup?: LookupAll;
  signal?: AbortSignal;
};

export function sendOnce(
  request: { method: string; url: string; headers: Record<string, string>; body: string | null },
  options: SendOptions,
): Promise<SendResult> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    const problem = outboundUrlProblem(request.url, options.allowPrivateUrls);
    if (problem) return resolve({ error: problem, ms: ms() });
    const url = new URL(request.url);
    const isHttps = url.protocol === 'https:';
    let settled = false;
    const finish = (result: Omit<SendResult, 'ms'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // One signal serves every attempt of the process: a listener left on it would pile up (and each
      // addEventListener walks the list).
      options.signal?.removeEventListener('abort', onAbort);
      resolve({ ...result, ms: ms() });
    };
    const headers: Record<string, string | number> = { ...request.headers };
    if (request.body !== null) headers['content-length'] = Buffer.byteLength(request.body);
    const req = (isHttps ? https : http).request(
      url,
      {
        method: request.method,
        agent: outboundAgentFor(url, { allowPrivate: options.allowPrivateUrls, lookup: options.lookup }),
        headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          // Text PostgreSQL can store: invalid UTF-8 becomes U+FFFD, NUL characters are dropped.
          const excerpt = Buffer.concat(chunks)
            .subarray(0, options.excerptBytes)
            .toString('utf8')
            .replaceAll('\u0000', '');
          finish({ status: res.statusCode, excerpt });
        };
        res.on('data', (chunk: Buffer) => {
          if (size >= options.excerptBytes) return;
          chunks.push(chunk);
          size += chunk.length;
          if (size >= options.excerptBytes) {
            done();
            res.destroy();
          }
        });
        res.on('end', done);
        res.on('error', done);
        res.on('close', done);
      },
    );
    const timer = setTimeout(() => {
      finish({ error: `no answer within ${options.timeoutMs / 1000} s`, timedOut: true });
      req.destroy();
    }, options.timeoutMs);
    const onAbort = () => {
      finish({ error: 'cut short: the server was stopping' });
      req.destroy();
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (err: NodeJS.ErrnoException) => finish({ error: err.message || String(err.code) }));
    req.end(request.body ?? undefined);
  });
}
