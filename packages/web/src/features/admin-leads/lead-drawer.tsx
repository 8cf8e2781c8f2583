import { Drawer, Stack, Table, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import type { LeadColumn } from './lead-columns';

// One lead whole (issue 16, ADR 054): every column of its table, whatever the column chooser hides,
// then what the table cannot show in a cell (the website lead's consent receipt). Opened from a row.

export function LeadDrawer<T>({
  row,
  title,
  columns,
  extra,
  onClose,
}: {
  row: T | null;
  title: (row: T) => string;
  columns: LeadColumn<T>[];
  /** Shown below the fields, e.g. the consent receipt. */
  extra?: { heading: string; render: (row: T) => ReactNode };
  onClose: () => void;
}) {
  return (
    <Drawer
      opened={row !== null}
      onClose={onClose}
      position="right"
      size="xl"
      title={row ? title(row) : ''}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {row ? (
        <Stack gap="lg">
          <Table withTableBorder withColumnBorders verticalSpacing={6} fz="sm">
            <Table.Tbody>
              {columns.map((col) => (
                <Table.Tr key={col.key}>
                  <Table.Th w="35%" scope="row">
                    {col.label}
                  </Table.Th>
                  <Table.Td style={{ wordBreak: 'break-word' }}>
                    {(col.renderDetail ?? col.render)(row)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {extra ? (
            <section aria-label={extra.heading}>
              <Title order={3} size="h5" mb="sm">
                {extra.heading}
              </Title>
              {extra.render(row)}
            </section>
          ) : null}
        </Stack>
      ) : null}
    </Drawer>
  );
}
