import { ERROR_CODES } from '@uf/shared/errors';
import type { Pool } from 'pg';
import { healthOf } from '../db/availability';
import type { EntityColumn } from '../db/entity-columns';
import { AppError } from '../errors';
import { type GroupCommitOptions, GroupCommitter } from './group-commit';

// What the group-committed writers (analytics events, website leads, partner leads) share: their rows
// sent as one array per column, and the committer's database rules.

/** A column of a batch statement's input: its name, its PostgreSQL type and its value in a row. */
export type BatchColumn<R> = readonly [name: string, type: string, value: (row: R) => unknown];

/**
 * A batch's rows as `unnest` of one array parameter per column ($1 … $n): each column named, typed and
 * read in one place. The statement's own parameters are numbered from `next` on.
 */
export function batchInput<R>(columns: readonly BatchColumn<R>[], options: { ordinality?: boolean } = {}) {
  const arrays = columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ');
  const names = [...columns.map(([name]) => name), ...(options.ordinality ? ['ord'] : [])].join(', ');
  return {
    /** `unnest(…) [with ordinality] as t(…)`: a FROM item with one row per batch row (`ord` from 1). */
    from: `unnest(${arrays})${options.ordinality ? ' with ordinality' : ''} as t(${names})`,
    next: columns.length + 1,
    values: (rows: readonly R[]) => columns.map(([, , value]) => rows.map(value)),
  };
}

/**
 * Where an inserted column's value comes from: the batch row (sent as an array parameter of the column's
 * own type), a SQL expression over the statement's input row (`{ sql }`), or nowhere (`null`: the
 * column's default).
 */
export type InsertValue<R> = ((row: R) => unknown) | { sql: string } | null;

/**
 * Every column's value: given for each property of the entity, except that a property named like a field
 * of the row's `input` (the submission as its shared schema parsed it) may be left out — it takes that
 * field's value, null when absent.
 */
export type InsertValues<P extends string, R extends { input: object }> = {
  readonly [K in Exclude<P, keyof R['input']>]: InsertValue<R>;
} & { readonly [K in Extract<P, keyof R['input']>]?: InsertValue<R> };

/**
 * A batch INSERT into an entity's table (ADR 064): the column names and types are the entity's, and a
 * new column cannot be left out by accident (the values' type asks for it, unless the submission carries
 * it under the same name). `extra` input columns carry what the statement needs besides the table's
 * values (lock keys, hashes, another table's values).
 */
export function batchInsert<P extends string>(table: {
  table: string;
  columns: Readonly<Record<P, EntityColumn>>;
  properties: readonly P[];
}) {
  return {
    from<R extends { input: object }>(
      values: InsertValues<P, R>,
      extra: readonly BatchColumn<R>[] = [],
      options: { ordinality?: boolean } = {},
    ) {
      const given = values as Partial<Record<P, InsertValue<R>>>;
      const sourceOf = (p: P): InsertValue<R> =>
        given[p] === undefined ? (r) => (r.input as Partial<Record<P, unknown>>)[p] ?? null : given[p];
      const inserted = table.properties.filter((p) => sourceOf(p) !== null);
      const fromRow = inserted.flatMap((p) => {
        const value = sourceOf(p);
        if (typeof value !== 'function') return [];
        const column: BatchColumn<R> = [table.columns[p].name, table.columns[p].arrayType, value];
        return [column];
      });
      for (const [name] of extra) {
        if (fromRow.some(([column]) => column === name))
          throw new Error(`${table.table}: input column ${name} twice`);
      }
      const input = batchInput<R>([...fromRow, ...extra], options);
      return {
        ...input,
        /** `table (column, …)`: what the INSERT writes. */
        into: `${table.table} (${inserted.map((p) => table.columns[p].name).join(', ')})`,
        /** Its values in the same order: input columns (qualified by `alias` when given) and expressions. */
        select: (alias?: string) =>
          inserted
            .map((p) => {
              const value = sourceOf(p);
              if (typeof value === 'function') return `${alias ? `${alias}.` : ''}${table.columns[p].name}`;
              return (value as { sql: string }).sql;
            })
            .join(', '),
      };
    },
  };
}

const sqlState = (err: unknown): string =>
  typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : '';

/** Class 22 (data exception) and 23 (constraint violation) come from a row's values. */
const isRowError = (err: unknown) => /^2[23]/.test(sqlState(err));
/** Deadlock and serialization failure: the same batch may succeed when tried again. */
const isTransient = (err: unknown) => sqlState(err) === '40P01' || sqlState(err) === '40001';

/**
 * A group committer writing to PostgreSQL: a batch refused for one row's values is written again one row
 * at a time (the refused row gets `rowRejected`, by default its own error), a deadlocked one is retried,
 * and a caller turned away is told the server is shutting down, or 429 `busyMessage` when the queue is full.
 */
export function databaseCommitter<T>(
  options: Omit<GroupCommitOptions<T>, 'isRowError' | 'isTransient' | 'unavailable' | 'rowRejected'> & {
    rowRejected?: GroupCommitOptions<T>['rowRejected'];
    busyMessage: string;
    /**
     * The pool written to: its health record learns whether this writer's writes succeed or stall
     * (/readyz, ADR 056, ADR 066) and says how long a queued write may wait.
     */
    pool: Pool;
    /** What /readyz calls this writer when its writes fail or stall ("website leads"). */
    name: string;
  },
): GroupCommitter<T> {
  const { busyMessage, rowRejected = (err) => err as Error, pool, name, write, ...rest } = options;
  const health = healthOf(pool);
  return new GroupCommitter<T>({
    ...rest,
    maxWaitMs: health.queueWaitMs,
    write: async (batch) => {
      const ended = health.writeStarted(name);
      try {
        await write(batch);
        ended(true);
      } catch (err) {
        ended(false, err);
        throw err;
      }
    },
    isRowError,
    isTransient,
    rowRejected,
    unavailable: (reason) =>
      reason === 'closed'
        ? new AppError(ERROR_CODES.unavailable, 'The server is restarting. Please try again in a moment.')
        : reason === 'stalled'
          ? new AppError(
              ERROR_CODES.unavailable,
              'The database is slow to answer. Please try again in a moment.',
            )
          : new AppError(ERROR_CODES.rateLimited, busyMessage),
  });
}
