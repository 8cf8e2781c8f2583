// Baseline for the consent/partner benchmark: the same Fastify parsing the same JSON body and writing
// one row with one INSERT through a pg pool of the app's size — the least a stored lead can cost.
// Prints the port it listens on. Usage: node insert-per-request.mjs <database url>
import { fromServer, serve } from './baseline-server.mjs';

const Fastify = fromServer('fastify');
const pg = fromServer('pg');

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
await serve(app, () => pool.end());
