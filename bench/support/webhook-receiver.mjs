// A fast webhook receiver for the webhooks bench: answers 200 at once and records, per path, when each
// message first arrived (by lead id) and every arrival. GET /stats answers what it recorded.
// Prints the port it listens on.
import { createServer } from 'node:http';

const first = new Map(); // `${path} ${leadId}` → first arrival (ms since epoch)
const ids = new Map(); // `${path} ${leadId}` → Set of webhook-ids
let count = 0;
let firstAt = 0;
let lastAt = 0;

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/stats') {
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify({
        count,
        firstAt,
        lastAt,
        first: Object.fromEntries(first),
        duplicates: [...ids.values()].filter((s) => s.size > 1).length,
      }),
    );
    return;
  }
  if (req.method === 'POST' && req.url === '/reset') {
    first.clear();
    ids.clear();
    count = 0;
    firstAt = 0;
    lastAt = 0;
    res.end('ok');
    return;
  }
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const now = Date.now();
    count += 1;
    if (!firstAt) firstAt = now;
    lastAt = now;
    try {
      const leadId = JSON.parse(Buffer.concat(chunks).toString('utf8')).data?.id;
      const key = `${req.url} ${leadId}`;
      if (!first.has(key)) first.set(key, now);
      const set = ids.get(key) ?? new Set();
      set.add(String(req.headers['webhook-id']));
      ids.set(key, set);
    } catch {
      // not a message
    }
    res.end('ok');
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => console.info(String(server.address().port)));
