import { Table } from '@mantine/core';
import type { LeadColumn } from './lead-columns';

// One lead's fields as a two-column table (issue 16, 26): every column of its table, whatever the column
// chooser hides, then any field the row carries that no column describes yet (shown by its name), so a
// field added on the server appears here without more work. The lead drawer and the lead's page share it.

const shown = (value: unknown) =>
  value === null || value === undefined || value === ''
    ? '—'
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value);

export function LeadFields<T extends object>({
  row,
  columns,
  omit = [],
  withUndescribed = true,
}: {
  row: T;
  columns: LeadColumn<T>[];
  /** Fields shown elsewhere on the page (e.g. the captured attribution in its own section). */
  omit?: readonly string[];
  /** Also list the fields no column describes (false: only the given columns). */
  withUndescribed?: boolean;
}) {
  const described = new Set([...columns.map((c) => c.key), ...omit]);
  const others = withUndescribed ? Object.entries(row).filter(([key]) => !described.has(key)) : [];
  return (
    <Table withTableBorder withColumnBorders verticalSpacing={6} fz="sm">
      <Table.Tbody>
        {columns.map((col) => (
          <Table.Tr key={col.key}>
            <Table.Th w="35%" scope="row">
              {col.label}
            </Table.Th>
            <Table.Td style={{ wordBreak: 'break-word' }}>{(col.renderDetail ?? col.render)(row)}</Table.Td>
          </Table.Tr>
        ))}
        {others.map(([key, value]) => (
          <Table.Tr key={key}>
            <Table.Th w="35%" scope="row">
              {key}
            </Table.Th>
            <Table.Td style={{ wordBreak: 'break-word' }}>{shown(value)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
