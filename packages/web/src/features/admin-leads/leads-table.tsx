import {
  Button,
  Card,
  Center,
  Checkbox,
  Group,
  Loader,
  NativeSelect,
  Pagination,
  Table,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { PAGE_SIZES } from '@uf/shared/admin-leads';
import type { ReactNode } from 'react';
import type { LeadColumn } from './lead-columns';
import type { LeadListing } from './use-lead-listing';

export type LeadsTableTexts<T> = {
  /** 'Leads Data' → 'Leads Data (N records)'. */
  title: string;
  loading: string;
  empty: string;
  fetchFailed: string;
  /** Accessible name of a row's checkbox and delete button, e.g. "lead Jane Doe". */
  rowName: (row: T) => string;
};

type Props<T extends { id: string }> = {
  texts: LeadsTableTexts<T>;
  columns: LeadColumn<T>[];
  listing: LeadListing;
  rows: T[] | undefined;
  total: number | undefined;
  isLoading: boolean;
  isError: boolean;
  /** Extra controls in the card's header (the API section's bulk delete and export). */
  actions?: ReactNode;
  onDelete: (row: T) => void;
};

function SortHeader({
  label,
  active,
  order,
  onClick,
}: {
  label: string;
  active: boolean;
  order: string;
  onClick: () => void;
}) {
  return (
    <UnstyledButton onClick={onClick} fw={600} fz="sm" style={{ whiteSpace: 'nowrap' }}>
      {label}
      {active ? (order === 'asc' ? ' ▲' : ' ▼') : ''}
    </UnstyledButton>
  );
}

/** A server-paged, sortable table with row selection and per-row delete. */
export function LeadsTable<T extends { id: string }>({
  texts,
  columns,
  listing,
  rows,
  total,
  isLoading,
  isError,
  actions,
  onDelete,
}: Props<T>) {
  const listed = rows ?? [];
  const listedIds = listed.map((r) => r.id);
  const selectedCount = listedIds.filter((id) => listing.selected.has(id)).length;
  const allSelected = listed.length > 0 && selectedCount === listed.length;
  const pages = Math.max(1, Math.ceil((total ?? 0) / listing.pageSize));

  let body: ReactNode;
  if (isLoading) {
    body = (
      <Center py="xl">
        <Group gap="sm">
          <Loader size="sm" />
          <Text>{texts.loading}</Text>
        </Group>
      </Center>
    );
  } else if (isError) {
    body = (
      <Text c="red.8" py="xl" ta="center" role="alert">
        {texts.fetchFailed}
      </Text>
    );
  } else if (listed.length === 0) {
    body = (
      <Text c="gray.7" py="xl" ta="center">
        {texts.empty}
      </Text>
    );
  } else {
    body = (
      <Table.ScrollContainer minWidth={1200}>
        <Table striped highlightOnHover verticalSpacing="xs" fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>
                <Checkbox
                  aria-label="Select all listed rows"
                  checked={allSelected}
                  indeterminate={selectedCount > 0 && !allSelected}
                  onChange={() => listing.setAllListed(listedIds, !allSelected)}
                />
              </Table.Th>
              {columns.map((col) => {
                const active = col.sortField === listing.sort;
                return (
                  <Table.Th
                    key={col.key}
                    aria-sort={active ? (listing.order === 'asc' ? 'ascending' : 'descending') : undefined}
                  >
                    {col.sortField ? (
                      <SortHeader
                        label={col.label}
                        active={active}
                        order={listing.order}
                        onClick={() => listing.toggleSort(col.sortField ?? 'createdAt')}
                      />
                    ) : (
                      col.label
                    )}
                  </Table.Th>
                );
              })}
              <Table.Th>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {listed.map((row) => (
              <Table.Tr
                key={row.id}
                bg={listing.selected.has(row.id) ? 'var(--mantine-color-blue-light)' : undefined}
              >
                <Table.Td>
                  <Checkbox
                    aria-label={`Select ${texts.rowName(row)}`}
                    checked={listing.selected.has(row.id)}
                    onChange={() => listing.toggleRow(row.id)}
                  />
                </Table.Td>
                {columns.map((col) => (
                  <Table.Td key={col.key} style={{ whiteSpace: 'nowrap' }}>
                    {col.render(row)}
                  </Table.Td>
                ))}
                <Table.Td>
                  <Button
                    size="compact-sm"
                    color="red"
                    variant="light"
                    aria-label={`Delete ${texts.rowName(row)}`}
                    onClick={() => onDelete(row)}
                  >
                    Delete
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  }

  return (
    <Card withBorder padding="md">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          {texts.title} ({(total ?? 0).toLocaleString()} records)
        </Title>
        {actions}
      </Group>
      {body}
      <Group justify="space-between" mt="md">
        <NativeSelect
          aria-label="Rows per page"
          data={PAGE_SIZES.map((n) => ({ value: String(n), label: `${n} per page` }))}
          value={String(listing.pageSize)}
          onChange={(e) => listing.setPageSize(Number(e.currentTarget.value))}
          w={140}
        />
        <Pagination
          total={pages}
          value={Math.min(listing.page, pages)}
          onChange={listing.setPage}
          getControlProps={(control) => ({ 'aria-label': `${control} page` })}
        />
      </Group>
    </Card>
  );
}
