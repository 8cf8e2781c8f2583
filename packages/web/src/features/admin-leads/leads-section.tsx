import { Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import type { LeadColumn } from './lead-columns';
import { type FilterField, LeadFilters } from './lead-filters';
import type { LeadKind } from './lead-page-link';
import { LeadsTable, type LeadsTableTexts } from './leads-table';
import { type StatCard, StatCards } from './stat-cards';
import type { LeadListing } from './use-lead-listing';

type Leads<T> = {
  listing: LeadListing;
  rows: T[] | undefined;
  list: { data?: { total: number }; isPending: boolean; isError: boolean };
  actions: { askDeleteOne: (row: T) => void };
};

/** One lead kind on the dashboard: its stat cards, filter card and table. */
export function LeadsSection<T extends { id: string }>(props: {
  kind: LeadKind;
  cards: StatCard[];
  statsError?: string;
  filterTitle: string;
  filterFields: FilterField[];
  texts: LeadsTableTexts<T>;
  columnsStorageKey: string;
  columns: LeadColumn<T>[];
  drawerExtra?: { heading: string; render: (row: T) => ReactNode };
  leads: Leads<T>;
  tableActions?: ReactNode;
}) {
  const { leads } = props;
  return (
    <Stack gap="lg">
      <StatCards cards={props.cards} error={props.statsError} />
      <LeadFilters
        title={props.filterTitle}
        fields={props.filterFields}
        values={leads.listing.filters}
        onChange={leads.listing.setFilter}
      />
      <LeadsTable
        kind={props.kind}
        texts={props.texts}
        columnsStorageKey={props.columnsStorageKey}
        columns={props.columns}
        drawerExtra={props.drawerExtra}
        listing={leads.listing}
        rows={leads.rows}
        total={leads.list.data?.total}
        isLoading={leads.list.isPending}
        isError={leads.list.isError}
        onDelete={leads.actions.askDeleteOne}
        actions={props.tableActions}
      />
    </Stack>
  );
}
