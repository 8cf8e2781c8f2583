import autocannon from 'autocannon';
import { BROWSER_UA } from './bodies.mjs';

/**
 * POSTs JSON to `url` with autocannon for `duration` seconds at `connections`, a new body per request:
 * `build()` returns the body, or `{ body, headers }` when `withHeaders` is set. Sent as a browser would
 * (JSON content type, a desktop user agent).
 */
export function postLoad(url, { connections, duration, withHeaders = false }, build) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        connections,
        duration,
        requests: [
          {
            method: 'POST',
            setupRequest: (req) => {
              const built = build();
              const { body, headers = {} } = withHeaders ? built : { body: built };
              return {
                ...req,
                body: JSON.stringify(body),
                headers: {
                  ...req.headers,
                  'content-type': 'application/json',
                  'user-agent': BROWSER_UA,
                  ...headers,
                },
              };
            },
          },
        ],
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });
}
