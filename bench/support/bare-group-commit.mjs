// The durable floor for the analytics benchmark (issue 23): the same Fastify and JSON body as
// bare-fastify.mjs, plus the least a durable track route must do — queue the event, write each batch
// as one multi-row INSERT (three writers at most, the app's own budget) and answer 204 only after that
// batch committed. No validation, no derivation, no rollups, no hooks: what the stack alone allows on
// this machine, so the app's route can be read against it as well as against the bare route.
// Started with DATABASE_URL (a scratch database); prints the port it listens on.
import { fromServer, serve } from './baseline-server.mjs';

const Fastify = fromServer('fastify');
const { Pool } = fromServer('pg');

const WRITERS = 3;
const MAX_BATCH = 500;
const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: WRITERS });
await pool.query(`create table if not exists bench_floor_event (
  id bigint generated always as identity primary key, created_at timestamptz not null default now(),
  event_type text not null, page text not null, referrer text not null, session_id text not null)`);

/** @type {{ row: string[], done: (err?: Error) => void }[]} */
let queue = [];
let writing = 0;

function flush() {
  if (writing >= WRITERS || queue.length === 0) return;
  const batch = queue.slice(0, MAX_BATCH);
  queue = queue.slice(batch.length);
  writing += 1;
  const columns = [0, 1, 2, 3].map((i) => batch.map((b) => b.row[i]));
  pool
    .query({
      name: 'floor_batch',
      text: `insert into bench_floor_event (event_type, page, referrer, session_id)
             select * from unnest($1::text[], $2::text[], $3::text[], $4::text[])`,
      values: columns,
    })
    .then(
      () => {
        for (const b of batch) b.done();
      },
      (err) => {
        for (const b of batch) b.done(err);
      },
    )
    .finally(() => {
      writing -= 1;
      flush();
    });
}

const app = Fastify({ logger: false, bodyLimit: 64 * 1024 });
app.post('/api/analytics/track', (req, reply) => {
  const body = /** @type {Record<string, string>} */ (req.body);
  queue.push({
    row: [body.eventType, body.page, body.referrer, body.sessionId],
    done: (err) => (err ? reply.code(500).send() : reply.code(204).send()),
  });
  // Events read in the same event-loop turn share a batch.
  if (queue.length === 1) setImmediate(flush);
  return reply;
});
await serve(app, () => pool.end());
