import pg from 'pg';

export type ScratchDatabase = { url: string; drop(): Promise<void> };

/**
 * A fresh database on DATABASE_URL's server for one built server, or null without DATABASE_URL (the
 * server then runs its embedded PostgreSQL in its own temp folder).
 */
export async function createScratchDatabase(prefix: string): Promise<ScratchDatabase | null> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) return null;
  const name = `${prefix}_${Date.now().toString(36)}`;
  const run = async (sql: string) => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await run(`create database ${name}`);
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return { url: u.toString(), drop: () => run(`drop database if exists ${name} with (force)`) };
}

/**
 * The rows a query returns from the shared e2e server's database, or undefined when that server runs on
 * its embedded PostgreSQL (no DATABASE_URL: nothing to read from the outside).
 */
export async function queryE2eDatabase<Row extends Record<string, unknown>>(
  url: string | null,
  sql: string,
  params: unknown[],
): Promise<Row[] | undefined> {
  if (!url) return undefined;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(sql, params)).rows;
  } finally {
    await client.end();
  }
}
