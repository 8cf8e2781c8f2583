import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';

/**
 * A secret of this deployment, generated once and kept in the database so every replica agrees (the
 * session cookie's signing secret when SESSION_SECRET is unset, the form tokens' key).
 */
export async function appSecret(pool: Pool, name: string): Promise<string> {
  await pool.query('insert into app_secret (name, value) values ($1, $2) on conflict (name) do nothing', [
    name,
    randomBytes(48).toString('base64url'),
  ]);
  const { rows } = await pool.query<{ value: string }>('select value from app_secret where name = $1', [
    name,
  ]);
  const value = rows[0]?.value;
  if (!value) throw new Error(`could not read the ${name.replace(/_/g, ' ')}`);
  return value;
}
