import type { EventEmitter } from 'node:events';

/** What servingLoad reads of an HTTP server: each request, and the close of its response. */
type RequestSource = Pick<EventEmitter, 'on'>;
type Response = Pick<EventEmitter, 'once'>;

/**
 * Whether this server is busy serving (ADR 062, "The write path's share"): the number of requests it was
 * answering at once, averaged over time, has reached `atLeast`. The average is exponential with a time
 * constant of `windowMs`, computed exactly over the moments the count changes. A moment's count would not
 * do either way: under a steady surge it drops to zero each time a batch of answers goes out, and at a
 * steady rate a stall of a few tens of milliseconds (a checkpoint's flush, a collection) lifts it for an
 * instant, which is no surge — yet paced sending for a while after it, and the queue fell behind.
 */
export function servingLoad(
  server: RequestSource,
  atLeast: number,
  windowMs = 250,
  now: () => number = () => performance.now(),
): { busy(): boolean; average(): number } {
  let inFlight = 0;
  let average = 0;
  let at = now();
  // Brings the average up to now: the count has been `inFlight` since `at`.
  const advance = () => {
    const t = now();
    if (t <= at) return;
    average = inFlight + (average - inFlight) * Math.exp(-(t - at) / windowMs);
    at = t;
  };
  server.on('request', (_req: unknown, res: Response) => {
    advance();
    inFlight += 1;
    res.once('close', () => {
      advance();
      inFlight -= 1;
    });
  });
  return {
    busy: () => {
      advance();
      return average >= atLeast;
    },
    average: () => {
      advance();
      return average;
    },
  };
}
