import { Drawer, Group, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import type { LeadColumn } from './lead-columns';
import { LeadFields } from './lead-fields';
import { type LeadKind, LeadPageLink } from './lead-page-link';

// One lead whole (issue 16, ADR 054): every column of its table, whatever the column chooser hides,
// then what the table cannot show in a cell (the website lead's consent receipt). Opened from a row;
// its link opens the lead's own page (issue 26), the address to paste into a ticket.

export function LeadDrawer<T extends { id: string }>({
  row,
  title,
  columns,
  extra,
  kind,
  onClose,
}: {
  row: T | null;
  title: (row: T) => string;
  columns: LeadColumn<T>[];
  /** Shown below the fields, e.g. the consent receipt. */
  extra?: { heading: string; render: (row: T) => ReactNode };
  /** Whose page the drawer links to. */
  kind: LeadKind;
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
          <Group justify="flex-end">
            <LeadPageLink kind={kind} id={row.id} size="sm">
              Open the lead's page (history, link to share)
            </LeadPageLink>
          </Group>
          <LeadFields row={row} columns={columns} />
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
