import { defineEntity, p } from '@mikro-orm/core';
import { describe, expect, it } from 'vitest';
import { batchInsert } from '../platform/pg-batch';
import { WebsiteLead } from './entities/website-lead.entity';
import { columnsOf, jsonObjectSql } from './entity-columns';

const Sample = defineEntity({
  name: 'Sample',
  tableName: 'sample_row',
  properties: {
    id: p.uuid().primary(),
    firstName: p.text(),
    code: p.string().length(2).nullable(),
    visits: p.smallint(),
    renamed: p.text().fieldName('legacy_name'),
    secret: p.text().nullable().hidden(),
    seenAt: p.datetime().nullable(),
    extra: p.json<{ a?: string }>().nullable(),
  },
});

describe('columnsOf', () => {
  it('names and types each column as the ORM would', () => {
    const { table, columns, properties } = columnsOf(Sample);
    expect(table).toBe('sample_row');
    expect(properties).toEqual(['id', 'firstName', 'code', 'visits', 'renamed', 'secret', 'seenAt', 'extra']);
    expect(columns.firstName).toEqual({
      name: 'first_name',
      type: 'text',
      arrayType: 'text',
      kind: 'text',
      nullable: false,
      hidden: false,
    });
    // The array parameter of a varchar(2) column drops the length: a cast would cut longer values short.
    expect(columns.code).toMatchObject({
      type: 'varchar(2)',
      arrayType: 'varchar',
      kind: 'text',
      nullable: true,
    });
    expect(columns.visits).toMatchObject({ name: 'visits', type: 'smallint', kind: 'int' });
    expect(columns.renamed.name).toBe('legacy_name');
    expect(columns.secret).toMatchObject({ hidden: true, nullable: true });
    expect(columns.seenAt).toMatchObject({ name: 'seen_at', type: 'timestamptz', kind: 'timestamp' });
    expect(columns.extra).toMatchObject({ type: 'jsonb', kind: 'json' });
    expect(columns.id).toMatchObject({ type: 'uuid', kind: 'uuid' });
  });

  it('reads the lead entities', () => {
    const { columns } = columnsOf(WebsiteLead);
    expect(columns.streetAddress.name).toBe('street_address');
    expect(columns.ownerTokenHash.hidden).toBe(true);
    expect(columns.consentGiven.kind).toBe('bool');
  });

  it('types a generated key as its column holds it, not as the serial that fills it', () => {
    const Counter = defineEntity({
      name: 'Counter',
      properties: { id: p.bigint().primary().autoincrement(), tags: p.array() },
    });
    expect(columnsOf(Counter).columns.id).toMatchObject({ type: 'bigint', kind: 'int' });
    expect(columnsOf(Counter).columns.tags).toMatchObject({ type: 'text[]', kind: 'array' });
  });

  it('refuses a column type it has no kind for', () => {
    const Odd = defineEntity({
      name: 'Odd',
      properties: { id: p.integer().primary(), ratio: p.double() },
    });
    expect(() => columnsOf(Odd)).toThrow("Odd.ratio: no column kind for SQL type 'double precision'");
  });
});

describe('jsonObjectSql', () => {
  it('pairs keys with columns and expressions, in order', () => {
    expect(
      jsonObjectSql(columnsOf(Sample), 's', ['id', ['name', 'firstName'], ['kind', { sql: "'x'::text" }]]),
    ).toBe("json_build_object('id', s.id, 'name', s.first_name, 'kind', 'x'::text)");
  });
});

describe('batchInsert', () => {
  type Row = { id: string; key: number; input: { firstName: string; code?: string } };
  const insert = batchInsert(columnsOf(Sample)).from<Row>(
    {
      // firstName: the input's field of that name.
      id: (r) => r.id,
      code: { sql: "'NY'" },
      visits: { sql: '0' },
      renamed: (r) => r.input.firstName.toUpperCase(),
      secret: null,
      seenAt: { sql: 'now()' },
      extra: null,
    },
    [['lock_key', 'bigint', (r) => r.key]],
    { ordinality: true },
  );

  it('inserts every column given a value, in the entity order, leaving the others to their defaults', () => {
    expect(insert.into).toBe('sample_row (id, first_name, code, visits, legacy_name, seen_at)');
    expect(insert.select('i')).toBe("i.id, i.first_name, 'NY', 0, i.legacy_name, now()");
    expect(insert.select()).toBe("id, first_name, 'NY', 0, legacy_name, now()");
  });

  it('sends one typed array per input column, then the extra ones', () => {
    expect(insert.from).toBe(
      'unnest($1::uuid[], $2::text[], $3::text[], $4::bigint[]) with ordinality as t(id, first_name, legacy_name, lock_key, ord)',
    );
    expect(insert.next).toBe(5);
    expect(
      insert.values([
        { id: 'a', key: 1, input: { firstName: 'Ann' } },
        { id: 'b', key: 2, input: { firstName: 'Bo' } },
      ]),
    ).toEqual([
      ['a', 'b'],
      ['Ann', 'Bo'],
      ['ANN', 'BO'],
      [1, 2],
    ]);
  });

  it('takes a column left out from the input field of the same name, null when absent', () => {
    const fromInput = batchInsert(columnsOf(Sample)).from<Row>({
      id: (r) => r.id,
      visits: null,
      renamed: null,
      secret: null,
      seenAt: null,
      extra: null,
    });
    expect(fromInput.into).toBe('sample_row (id, first_name, code)');
    expect(
      fromInput.values([
        { id: 'a', key: 1, input: { firstName: 'Ann', code: 'NY' } },
        { id: 'b', key: 2, input: { firstName: 'Bo' } },
      ]),
    ).toEqual([
      ['a', 'b'],
      ['Ann', 'Bo'],
      ['NY', null],
    ]);
  });

  it('refuses an extra input column that is also a column of the table', () => {
    expect(() =>
      batchInsert(columnsOf(Sample)).from<Row>(
        { id: (r) => r.id, visits: null, renamed: null, secret: null, seenAt: null, extra: null },
        [['first_name', 'text', (r) => r.input.firstName]],
      ),
    ).toThrow('sample_row: input column first_name twice');
  });
});
