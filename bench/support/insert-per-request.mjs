// Baseline for the consent/partner benchmark: the same Fastify parsing the same JSON body and writing
// one row with one INSERT through a pg pool of the app's size — the least a stored lead can cost.
// Prints the port it listens on. Usage: node insert-per-request.mjs <database url>
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const serverPackage = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../packages/server/package.json',
);
const require = createRequire(serverPackage);
const Fastify = require('fastify');
const pg = require('pg');

const pool = new pg.Pool({ connectionString: process.argv[2], max: 10 });
await pool.query(`create table if not exists bench_baseline_lead (
  id uuid primary key default gen_random_uuid(), first_name text, last_name text, street_address text,
  city text, state text, phone text, birth_month smallint, birth_day smallint, birth_year smallint,
  created_at timestamptz not null default now())`);

const app = Fastify({ logger: false, bodyLimit: 64 * 1024 });
app.post('/baseline', async (req, reply) => {
  const b = req.body;
  const { rows } = await pool.query(
    `insert into bench_baseline_lead (first_name, last_name, street_address, city, state, phone, birth_month, birth_day, birth_year)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning id`,
    [
      b.firstName,
      b.lastName,
      b.streetAddress,
      b.city,
      b.state,
      b.phone,
      b.birthMonth,
      b.birthDay,
      b.birthYear,
    ],
  );
  return reply.code(201).send({ id: rows[0].id });
});
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${app.server.address().port}\n`);
process.on(
  'SIGTERM',
  () =>
    void app
      .close()
      .then(() => pool.end())
      .then(() => process.exit(0)),
);
