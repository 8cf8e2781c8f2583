import type { EntitySchema } from '@mikro-orm/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entities } from '../src/db/entities/index';
import { columnsOf, type EntityColumn } from '../src/db/entity-columns';
import { startTestApp, type TestApp } from './support/test-app';

// The entities are the one description of their tables (ADR 064): the SQL written by hand reads column
// names and types from columnsOf(). Here that description meets the truth twice: the ORM's own metadata
// after discovery, and the tables the migrations built.

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** The schema generator's spelling of a type, as PostgreSQL's format_type() writes it. */
const pgSpelling = (type: string) =>
  type
    .replace(/^varchar/, 'character varying')
    .replace(/^timestamptz$/, 'timestamp with time zone')
    .replace(/^int$/, 'integer');

const schemas = entities as unknown as EntitySchema[];

describe.each(schemas.map((schema) => [schema.meta.className, schema] as const))('%s', (_name, schema) => {
  const { table, columns, properties } = columnsOf(schema);
  const described = properties.map((p) => ({ p, ...(columns[p] as EntityColumn) }));

  it('names and types its columns as the ORM does', () => {
    const discovered = t.app.db.orm.getMetadata().get(schema);
    expect(table).toBe(discovered.tableName);
    for (const { p, name, type } of described) {
      const prop = discovered.properties[p];
      expect({ p, name, type }).toEqual({
        p,
        name: prop?.fieldNames[0],
        // A generated key is a serial to the ORM (its default), the plain integer type to the column.
        type: prop?.columnTypes[0]?.replace(/^bigserial$/, 'bigint'),
      });
    }
  });

  it('describes the migrated table: the same columns, types and nullability', async () => {
    const { rows } = await t.app.db.pool.query<{ name: string; type: string; nullable: boolean }>(
      `select a.attname as name, format_type(a.atttypid, a.atttypmod) as type, not a.attnotnull as nullable
       from pg_attribute a where a.attrelid = $1::regclass and a.attnum > 0 and not a.attisdropped`,
      [table],
    );
    const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
    expect(
      described.map((c) => ({ name: c.name, type: pgSpelling(c.type), nullable: c.nullable })).sort(byName),
    ).toEqual(rows.sort(byName));
  });
});
