import {
  Alert,
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
import { type MouseEvent, type ReactNode, type RefObject, useLayoutEffect, useRef, useState } from 'react';
import { useColumnChoice } from './column-choice';
import { ColumnChooser } from './column-chooser';
import type { LeadColumn } from './lead-columns';
import { LeadDrawer } from './lead-drawer';
import { type LeadKind, LeadPageLink } from './lead-page-link';
import type { LeadListing } from './use-lead-listing';

export type LeadsTableTexts<T> = {
  /** 'Leads Data' → 'Leads Data (N records)'. */
  title: string;
  loading: string;
  empty: string;
  fetchFailed: string;
  /** Accessible name of a row's checkbox and buttons, e.g. "lead Jane Doe". */
  rowName: (row: T) => string;
  /** The lead drawer's title, e.g. "Lead Jane Doe". */
  drawerTitle: (row: T) => string;
  /** What the rows are, for "Select all 3,000 matching leads" (default 'leads'). */
  itemsName?: string;
};

type Props<T extends { id: string }> = {
  /** Which lead table: the rows link to /admin/leads/{id} or /admin/api-leads/{id}. */
  kind: LeadKind;
  texts: LeadsTableTexts<T>;
  /** Where this browser remembers the chosen columns (localStorage key). */
  columnsStorageKey: string;
  columns: LeadColumn<T>[];
  /** Shown in the lead drawer below the fields (the consent receipt). */
  drawerExtra?: { heading: string; render: (row: T) => ReactNode };
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

/**
 * The row actions stay in view however wide the chosen columns make the table (issue 26): the last
 * column sticks to the right edge of the scroll area, on an opaque background with a hairline.
 */
const STICKY_ACTIONS = {
  position: 'sticky',
  right: 0,
  zIndex: 1,
  backgroundColor: 'var(--mantine-color-body)',
  boxShadow: 'inset 1px 0 0 var(--mantine-color-gray-3)',
} as const;

/** One line per cell; a long value (an e-mail, a campaign) is cut with an ellipsis, whole in the drawer. */
const CELL = {
  whiteSpace: 'nowrap',
  maxWidth: '11rem',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
} as const;

/** A free-text column's cell (LeadColumn.fluid): capped like the others, at the cap useFluidCap finds. */
const FLUID_CELL = { ...CELL, maxWidth: 'var(--fluid-cap, 11rem)' } as const;

/** The free-text cells' cap: 11rem while the table fits, down to 6rem when it does not (px, 16px rem). */
const FLUID_CAP_MAX = 176;
const FLUID_CAP_MIN = 96;

/**
 * Lowers the free-text columns' cap (the CSS variable --fluid-cap on the table) until the table fits its
 * box, so the default columns fit 1440 px with long names, e-mails and campaigns and Created At is never
 * under the pinned actions (issue 37); at 11rem while everything fits. Measured before paint, again when
 * the box is resized or the rows change.
 */
function useFluidCap(tableRef: RefObject<HTMLTableElement | null>, fluidColumns: number, rowsKey: string) {
  useLayoutEffect(() => {
    const table = tableRef.current;
    const box = table?.parentElement;
    if (!table || !box || fluidColumns === 0) return;
    const fitsAt = (cap: number) => {
      table.style.setProperty('--fluid-cap', `${cap}px`);
      return box.scrollWidth <= box.clientWidth;
    };
    // The largest cap at which the table fits (to the pixel, seven layouts at most), else the floor.
    const fit = () => {
      if (fitsAt(FLUID_CAP_MAX)) return;
      let [low, high] = [FLUID_CAP_MIN, FLUID_CAP_MAX - 1];
      while (low < high) {
        const mid = Math.ceil((low + high) / 2);
        if (fitsAt(mid)) low = mid;
        else high = mid - 1;
      }
      fitsAt(low);
    };
    fit();
    let width = box.clientWidth;
    const observer = new ResizeObserver(() => {
      if (box.clientWidth === width) return;
      width = box.clientWidth;
      fit();
    });
    observer.observe(box);
    return () => observer.disconnect();
  }, [tableRef, fluidColumns, rowsKey]);
}

/** A click on a row opens its lead, unless it lands on one of the row's own controls. */
const isOnControl = (event: MouseEvent) =>
  event.target instanceof Element && event.target.closest('button, a, input, label, select') !== null;

/** A server-paged, sortable table with chosen columns, row selection, a lead drawer and per-row delete. */
export function LeadsTable<T extends { id: string }>({
  kind,
  texts,
  columnsStorageKey,
  columns: allColumns,
  drawerExtra,
  listing,
  rows,
  total,
  isLoading,
  isError,
  actions,
  onDelete,
}: Props<T>) {
  const choice = useColumnChoice(columnsStorageKey, allColumns);
  const columns = choice.shown;
  const [openedId, setOpenedId] = useState<string | null>(null);
  const listed = rows ?? [];
  const tableRef = useRef<HTMLTableElement>(null);
  useFluidCap(
    tableRef,
    columns.filter((c) => c.fluid).length,
    `${listed.map((r) => r.id).join()}|${columns.map((c) => c.key).join()}`,
  );
  // The drawer follows the listed row (a refresh shows its new values; a deleted row closes it).
  const opened = listed.find((r) => r.id === openedId) ?? null;
  const listedIds = listed.map((r) => r.id);
  const selectedCount = listedIds.filter((id) => listing.selected.has(id)).length;
  const allSelected = listed.length > 0 && selectedCount === listed.length;
  const pages = Math.max(1, Math.ceil((total ?? 0) / listing.pageSize));
  const matchingCount = total ?? 0;
  const itemsName = texts.itemsName ?? 'leads';
  // Gmail's offer (issue 26): the whole page is selected and more leads match than it shows.
  const offersAllMatching =
    !isLoading &&
    listed.length > 0 &&
    (listing.allMatching || (allSelected && matchingCount > listed.length));

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
      <Table.ScrollContainer minWidth={Math.max(600, columns.length * 110)}>
        <Table ref={tableRef} striped highlightOnHover verticalSpacing="xs" fz="sm">
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
              <Table.Th style={STICKY_ACTIONS}>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {listed.map((row) => (
              <Table.Tr
                key={row.id}
                bg={listing.selected.has(row.id) ? 'var(--mantine-color-blue-light)' : undefined}
                style={{ cursor: 'pointer' }}
                onClick={(event) => {
                  if (!isOnControl(event)) setOpenedId(row.id);
                }}
              >
                <Table.Td>
                  <Checkbox
                    aria-label={`Select ${texts.rowName(row)}`}
                    checked={listing.selected.has(row.id)}
                    onChange={() => listing.toggleRow(row.id)}
                  />
                </Table.Td>
                {columns.map((col) => (
                  <Table.Td key={col.key} style={col.fluid ? FLUID_CELL : CELL}>
                    {col.render(row)}
                  </Table.Td>
                ))}
                <Table.Td style={STICKY_ACTIONS}>
                  <Group gap={4} wrap="nowrap">
                    <Button
                      size="compact-xs"
                      variant="default"
                      aria-label={`View ${texts.rowName(row)}`}
                      onClick={() => setOpenedId(row.id)}
                    >
                      View
                    </Button>
                    {/* The lead's own page, as a real link: middle-click, "Copy link" (issue 26). */}
                    <LeadPageLink
                      kind={kind}
                      id={row.id}
                      size="xs"
                      aria-label={`Open the page of ${texts.rowName(row)}`}
                      title="The lead's own page (a link you can share)"
                      style={{ display: 'inline-flex', padding: 2 }}
                    >
                      {/* An "open" glyph, not a word: the actions column stays narrow (ADR 060). */}
                      <svg width="14" height="14" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                        <path
                          d="M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5"
                          fill="none"
                          stroke="currentColor"
                          strokeWidth="2"
                          strokeLinecap="round"
                          strokeLinejoin="round"
                        />
                      </svg>
                    </LeadPageLink>
                    <Button
                      size="compact-xs"
                      color="red"
                      variant="light"
                      aria-label={`Delete ${texts.rowName(row)}`}
                      onClick={() => onDelete(row)}
                    >
                      Delete
                    </Button>
                  </Group>
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
        <Group gap="xs">
          {actions}
          <ColumnChooser choice={choice} />
        </Group>
      </Group>
      {offersAllMatching && (
        <Alert color="blue" variant="light" py="xs" mb="sm" role="status">
          {listing.allMatching ? (
            <Group gap="xs">
              <Text size="sm">
                All {matchingCount.toLocaleString()} {itemsName} matching the filters are selected.
              </Text>
              <Button size="compact-sm" variant="subtle" onClick={listing.clearSelection}>
                Clear selection
              </Button>
            </Group>
          ) : (
            <Group gap="xs">
              <Text size="sm">
                All {listed.length.toLocaleString()} {itemsName} on this page are selected.
              </Text>
              <Button size="compact-sm" variant="subtle" onClick={listing.selectAllMatching}>
                Select all {matchingCount.toLocaleString()} matching
              </Button>
            </Group>
          )}
        </Alert>
      )}
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
      <LeadDrawer
        row={opened}
        title={texts.drawerTitle}
        columns={allColumns}
        extra={drawerExtra}
        kind={kind}
        onClose={() => setOpenedId(null)}
      />
    </Card>
  );
}
