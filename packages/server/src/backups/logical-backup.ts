import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import pg, { type Pool, type PoolClient } from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { withoutTimeouts } from '../db/database';

// The embedded database's backup format (ADR 050): the data of every table, taken in one snapshot with
// COPY, as a gzipped script of `COPY … FROM stdin` blocks and sequence positions. The schema is not in
// the file: it is what the migrations named in the header create, so a restore migrates first and
// then loads the data. It needs no PostgreSQL client tools, and it restores into the embedded
// database or into any PostgreSQL the app has migrated (an embedded site can move to a server).

export const LOGICAL_BACKUP_MAGIC = '-- unclaimed-funds logical backup';
const FORMAT_VERSION = 1;
const MIGRATIONS_TABLE = 'mikro_orm_migrations';

type Header = { version: number; createdAt: string; migrations: string[] };

const ident = (name: string) => pg.escapeIdentifier(name);

/** Tables of the public schema, referenced tables before the tables that reference them. */
/**
 * Tables kept by triggers from other tables (migration attribution): not backed up; a restore fills
 * them again as the leads are copied in (and clears them with the truncate before).
 */
const DERIVED_TABLES = [
  'lead_daily_source',
  'lead_monthly_source',
  // Lead quality by source (issue 33, migration lead_quality_sources).
  'lead_daily_quality',
  'lead_monthly_quality',
  'lead_daily_reason',
  'lead_monthly_reason',
  // The sales' money by day and the zone it is dated in (ADR 070, migration sale_daily_rollup): the
  // sales copied in add to it (truncating lead_sale empties it); a database without a zone yet sums it
  // at its first dashboard.
  'lead_sale_daily',
  'lead_sale_daily_zone',
];

async function tablesInLoadOrder(client: PoolClient): Promise<string[]> {
  const { rows: tables } = await client.query<{ name: string }>(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition and c.relname <> $1
        and c.relname <> all($2::text[])
      order by c.relname`,
    [MIGRATIONS_TABLE, DERIVED_TABLES],
  );
  const { rows: refs } = await client.query<{ child: string; parent: string }>(
    `select c.relname as child, p.relname as parent from pg_constraint k
       join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
       join pg_namespace n on n.oid = c.relnamespace
      where k.contype = 'f' and n.nspname = 'public' and c.oid <> p.oid`,
  );
  const ordered: string[] = [];
  const placed = new Set<string>();
  const visit = (name: string, path: Set<string>) => {
    if (placed.has(name) || path.has(name)) return;
    path.add(name);
    for (const r of refs) if (r.child === name) visit(r.parent, path);
    placed.add(name);
    ordered.push(name);
  };
  for (const t of tables) visit(t.name, new Set());
  return ordered;
}

async function columnsOf(client: PoolClient, table: string): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `select a.attname as name from pg_attribute a
      where a.attrelid = $1::regclass and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
      order by a.attnum`,
    [ident(table)],
  );
  return rows.map((r) => r.name);
}

async function write(out: Writable, chunk: string | Buffer) {
  if (!out.write(chunk)) await once(out, 'drain');
}

/** Writes a gzipped logical backup of the database behind `pool` to `out` (and ends it). */
export async function writeLogicalBackup(pool: Pool, out: Writable, now = new Date()): Promise<void> {
  const gzip = createGzip();
  const done = pipeline(gzip, out);
  const client = await pool.connect();
  try {
    // A backup of a big database runs longer than a request's statement_timeout.
    await withoutTimeouts(client);
    // One snapshot for every table: the backup is consistent while the site keeps writing.
    await client.query('begin isolation level repeatable read read only');
    const { rows: migrations } = await client.query<{ name: string }>(
      `select name from ${MIGRATIONS_TABLE} order by name`,
    );
    const header: Header = {
      version: FORMAT_VERSION,
      createdAt: now.toISOString(),
      migrations: migrations.map((m) => m.name),
    };
    await write(gzip, `${LOGICAL_BACKUP_MAGIC}\n-- ${JSON.stringify(header)}\n`);
    for (const table of await tablesInLoadOrder(client)) {
      const columns = (await columnsOf(client, table)).map(ident).join(', ');
      await write(gzip, `COPY ${ident(table)} (${columns}) FROM stdin;\n`);
      const data = client.query(copyTo(`COPY (select ${columns} from ${ident(table)}) TO STDOUT`));
      for await (const chunk of data) await write(gzip, chunk as Buffer);
      await write(gzip, '\\.\n');
    }
    const { rows: sequences } = await client.query<{ name: string }>(
      `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind = 'S' order by c.relname`,
    );
    for (const { name } of sequences) {
      const { rows } = await client.query<{ last_value: string; is_called: boolean }>(
        `select last_value, is_called from ${ident(name)}`,
      );
      const seq = rows[0];
      if (seq) {
        const literal = `'${ident(name).replace(/'/g, "''")}'`;
        await write(gzip, `SELECT pg_catalog.setval(${literal}, ${seq.last_value}, ${seq.is_called});\n`);
      }
    }
    await client.query('commit');
    gzip.end();
  } catch (err) {
    await client.query('rollback').catch(() => {});
    gzip.destroy(err as Error);
    throw err;
  } finally {
    client.release(true);
  }
  await done;
}

/** Whether `file` (gzip) is a logical backup: its first line is the magic comment. */
export async function isLogicalBackup(file: string): Promise<boolean> {
  const lines = createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity });
  try {
    for await (const line of lines) return line === LOGICAL_BACKUP_MAGIC;
    return false;
  } catch {
    return false;
  } finally {
    lines.close();
  }
}

const COPY_LINE = /^COPY ("(?:[^"]|"")+") \(("(?:[^"]|"")+"(?:, "(?:[^"]|"")+")*)\) FROM stdin;$/;
const SETVAL_LINE = /^SELECT pg_catalog\.setval\('((?:[^']|'')+)', (\d+), (true|false)\);$/;

export class BackupFormatError extends Error {}

/**
 * Replaces every row of the (already migrated) database behind `pool` with a logical backup, in one
 * transaction: on any error nothing changes. Refuses a backup made by a newer version of the app.
 */
export async function restoreLogicalBackup(
  pool: Pool,
  file: string,
): Promise<{ tables: number; rows: number }> {
  const lines = createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity });
  const client = await pool.connect();
  let tables = 0;
  let rows = 0;
  try {
    const iterator = lines[Symbol.asyncIterator]();
    const magic = await iterator.next();
    const headerLine = await iterator.next();
    if (magic.value !== LOGICAL_BACKUP_MAGIC || typeof headerLine.value !== 'string') {
      throw new BackupFormatError('This file is not a backup of the embedded database.');
    }
    const header = JSON.parse(headerLine.value.replace(/^-- /, '')) as Header;
    if (header.version !== FORMAT_VERSION) {
      throw new BackupFormatError(`Unknown backup format version ${header.version}.`);
    }
    const { rows: applied } = await client.query<{ name: string }>(`select name from ${MIGRATIONS_TABLE}`);
    const known = new Set(applied.map((m) => m.name));
    const unknown = header.migrations.filter((m) => !known.has(m));
    if (unknown.length) {
      throw new BackupFormatError(
        `This backup was made by a newer version of the app (migrations ${unknown.join(', ')}); restore it with that version.`,
      );
    }
    await client.query('begin');
    const existing = await tablesInLoadOrder(client);
    if (existing.length) {
      await client.query(`truncate ${existing.map(ident).join(', ')} restart identity cascade`);
    }
    const tableNames = new Set(existing.map(ident));
    for (;;) {
      const next = await iterator.next();
      if (next.done) break;
      const line = next.value;
      if (line === '') continue;
      const copy = COPY_LINE.exec(line);
      if (copy) {
        const [, table = '', columns = ''] = copy;
        if (!tableNames.has(table))
          throw new BackupFormatError(`The backup holds an unknown table ${table}.`);
        const target = client.query(copyFrom(`COPY ${table} (${columns}) FROM STDIN`));
        const finished = once(target, 'finish');
        let ended = false;
        for (;;) {
          const data = await iterator.next();
          if (data.done) break;
          if (data.value === '\\.') {
            ended = true;
            break;
          }
          rows += 1;
          if (!target.write(`${data.value}\n`)) await once(target, 'drain');
        }
        target.end();
        await finished;
        if (!ended)
          throw new BackupFormatError('The backup ends in the middle of a table: it is incomplete.');
        tables += 1;
        continue;
      }
      const setval = SETVAL_LINE.exec(line);
      if (setval) {
        const [, name = '', value = '0', called = 'true'] = setval;
        await client.query('select pg_catalog.setval($1::regclass, $2, $3)', [
          name.replace(/''/g, "'"),
          value,
          called === 'true',
        ]);
        continue;
      }
      throw new BackupFormatError(`Unexpected line in the backup: ${line.slice(0, 80)}`);
    }
    await client.query('commit');
    return { tables, rows };
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  } finally {
    client.release();
    lines.close();
  }
}
