import { type EntitySchema, type InferEntity, Type } from '@mikro-orm/core';
import { PostgreSqlPlatform } from '@mikro-orm/postgresql';

// A table's columns as its entity describes them (issue 23, ADR 064), read when a module loads: the SQL
// written by hand — batch inserts, exports, admin lists, webhook payloads — takes column names and types
// from here instead of spelling them again. The entity's metadata before the ORM starts holds each
// property's options and type class; the column name and SQL type come from the platform the ORM uses
// (its default naming strategy, its type mapping), and test/entity-columns.test.ts checks the result
// against the ORM's discovered metadata and the migrated database.

/** How a column's values are read, compared and printed. */
export type ColumnKind = 'text' | 'uuid' | 'int' | 'bool' | 'timestamp' | 'json' | 'array';

export type EntityColumn = {
  /** The column's name. */
  name: string;
  /** Its SQL type as the schema generator writes it: 'text', 'varchar(2)', 'smallint', 'timestamptz'… */
  type: string;
  /** The type without its modifier, for array parameters: a `varchar(2)[]` cast cuts a longer value short, the column refuses it. */
  arrayType: string;
  kind: ColumnKind;
  nullable: boolean;
  /** `.hidden()` in the entity: a secret, never shown or exported. */
  hidden: boolean;
};

/** The property names of an entity built with `defineEntity`. */
export type PropertyOf<S> = Extract<keyof InferEntity<S>, string>;

export type TableColumns<S> = {
  table: string;
  /** Every property's column, in the entity's order. */
  columns: { readonly [K in PropertyOf<S>]: EntityColumn };
  properties: readonly PropertyOf<S>[];
};

const KINDS: Record<string, ColumnKind> = {
  uuid: 'uuid',
  text: 'text',
  varchar: 'text',
  smallint: 'int',
  int: 'int',
  integer: 'int',
  bigint: 'int',
  boolean: 'bool',
  timestamptz: 'timestamp',
  jsonb: 'json',
};

const SERIALS: Record<string, string> = { smallserial: 'smallint', serial: 'int', bigserial: 'bigint' };

const platform = new PostgreSqlPlatform();
const naming = new (platform.getNamingStrategy())();

type PropertyOptions = {
  type?: unknown;
  fieldName?: string;
  name?: string;
  columnType?: string;
  nullable?: boolean;
  hidden?: boolean;
  kind?: string;
};

function columnOf(entity: string, property: string, options: PropertyOptions): EntityColumn {
  if (options.kind && options.kind !== 'scalar')
    throw new Error(`${entity}.${property}: relations are not columns here`);
  // A builder with options (bigint, array) holds a Type instance, the others a Type class.
  const mapped =
    options.type instanceof Type
      ? options.type
      : Type.getType(options.type as Parameters<typeof Type.getType>[0]);
  const generated =
    options.columnType ?? mapped.getColumnType(options as Parameters<Type['getColumnType']>[0], platform);
  // An autoincrement key is generated as a serial; its column holds the plain integer type.
  const type = SERIALS[generated] ?? generated;
  const arrayType = type.replace(/\(.*\)$/, '');
  const kind = arrayType.endsWith('[]') ? 'array' : KINDS[arrayType];
  if (!kind) throw new Error(`${entity}.${property}: no column kind for SQL type '${type}'`);
  return {
    name: options.fieldName ?? options.name ?? naming.propertyToColumnName(property),
    type,
    arrayType,
    kind,
    nullable: options.nullable === true,
    hidden: options.hidden === true,
  };
}

/** The columns of an entity's table. */
export function columnsOf<S extends EntitySchema>(schema: S): TableColumns<S> {
  const meta = schema.meta;
  const properties = Object.keys(meta.properties) as PropertyOf<S>[];
  const columns = Object.fromEntries(
    properties.map((p) => [p, columnOf(meta.className, p, meta.properties[p] as PropertyOptions)]),
  ) as TableColumns<S>['columns'];
  return { table: schema.tableName, columns, properties };
}

/** A value of a JSON object built in SQL: a property of the entity, or an expression from elsewhere. */
export type JsonEntry<P extends string> = P | readonly [key: string, value: P | { sql: string }];

/**
 * `json_build_object(…)` of an entity's properties read through `alias`: each entry a property (under its
 * own name), `[key, property]`, or `[key, { sql }]`, in the object's key order. PostgreSQL writes the
 * values as JSON (numbers, booleans, timestamps in ISO 8601 with the session's offset).
 */
export function jsonObjectSql<P extends string>(
  table: { columns: Readonly<Record<P, EntityColumn>> },
  alias: string,
  entries: readonly JsonEntry<NoInfer<P>>[],
): string {
  const pairs = entries.map((entry) => {
    const [key, value] = typeof entry === 'string' ? [entry, entry] : entry;
    return `'${key}', ${typeof value === 'string' ? `${alias}.${table.columns[value as P].name}` : value.sql}`;
  });
  return `json_build_object(${pairs.join(', ')})`;
}
