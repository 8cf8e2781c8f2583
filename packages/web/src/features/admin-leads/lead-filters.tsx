import { Card, NativeSelect, SimpleGrid, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { filterHint } from '@uf/shared/admin-leads';
import { CHANNELS } from '@uf/shared/channel';
import { ADMIN_API_LEAD_BIRTH_YEARS, ADMIN_LEAD_BIRTH_YEARS } from '@uf/shared/constants';
import { US_STATE_CODES } from '@uf/shared/state-sites';
import { useEffect, useState } from 'react';
import { businessDaysNote } from '../../business-clock';

// The filter cards of spec §2/§5. Values are strings; '' and 'all' mean "no filter" and are never sent.

export type FilterField =
  | { key: string; label: string; type: 'select'; options: { value: string; label: string }[] }
  | { key: string; label: string; type: 'date' }
  | { key: string; label: string; type: 'search'; placeholder: string };

/** The search box of both tables (issue 16): name, e-mail or phone, answered by the server. */
const SEARCH_FIELD: FilterField = {
  key: 'search',
  label: 'Search',
  type: 'search',
  placeholder: 'Name, e-mail or phone',
};

/** Lead quality (issue 33): the verdict the rules or an admin gave. */
const VERDICT_FIELD: FilterField = {
  key: 'verdict',
  label: 'Verdict',
  type: 'select',
  options: [
    { value: 'all', label: 'All' },
    { value: 'accept', label: 'Accepted' },
    { value: 'hold', label: 'Held' },
    { value: 'reject', label: 'Rejected' },
  ],
};

const stateOptions = [
  { value: 'all', label: 'All States' },
  ...US_STATE_CODES.map((code) => ({ value: code, label: code })),
];
const yearOptions = (years: readonly string[]) => [
  { value: 'all', label: 'All Years' },
  ...years.map((y) => ({ value: y, label: y })),
];

export const WEBSITE_FILTER_FIELDS: FilterField[] = [
  SEARCH_FIELD,
  { key: 'state', label: 'State', type: 'select', options: stateOptions },
  { key: 'birthYear', label: 'Birth Year', type: 'select', options: yearOptions(ADMIN_LEAD_BIRTH_YEARS) },
  { key: 'startDate', label: 'Start Date', type: 'date' },
  { key: 'endDate', label: 'End Date', type: 'date' },
  {
    key: 'consentGiven',
    label: 'Consent',
    type: 'select',
    options: [
      { value: 'all', label: 'All' },
      { value: 'true', label: 'Yes' },
      { value: 'false', label: 'No' },
    ],
  },
  // Where the lead's visit came from (issue 15).
  {
    key: 'channel',
    label: 'Channel',
    type: 'select',
    options: [{ value: 'all', label: 'All Channels' }, ...CHANNELS.map((c) => ({ value: c, label: c }))],
  },
  { key: 'source', label: 'Source', type: 'search', placeholder: 'e.g. google' },
  { key: 'campaign', label: 'Campaign', type: 'search', placeholder: 'Exact campaign name' },
  VERDICT_FIELD,
];

export const API_FILTER_FIELDS: FilterField[] = [
  { ...SEARCH_FIELD, placeholder: 'Name or phone' },
  { key: 'state', label: 'State', type: 'select', options: stateOptions },
  { key: 'birthYear', label: 'Birth Year', type: 'select', options: yearOptions(ADMIN_API_LEAD_BIRTH_YEARS) },
  { key: 'startDate', label: 'Start Date', type: 'date' },
  { key: 'endDate', label: 'End Date', type: 'date' },
  VERDICT_FIELD,
];

export function LeadFilters({
  title,
  fields,
  values,
  onChange,
}: {
  title: string;
  fields: FilterField[];
  values: Record<string, string>;
  onChange: (key: string, value: string) => void;
}) {
  return (
    <Card withBorder padding="md">
      <Title order={3} size="h5" mb="sm">
        {title}
      </Title>
      <SimpleGrid cols={{ base: 1, xs: 2, md: Math.min(fields.length, 5) }} spacing="sm">
        {fields.map((field) =>
          field.type === 'select' ? (
            <NativeSelect
              key={field.key}
              label={field.label}
              data={field.options}
              value={values[field.key] || 'all'}
              onChange={(e) => onChange(field.key, e.currentTarget.value)}
            />
          ) : field.type === 'search' ? (
            <SearchInput
              key={field.key}
              label={field.label}
              placeholder={field.placeholder}
              hint={filterHint(field.key, values)}
              value={values[field.key] ?? ''}
              onChange={(value) => onChange(field.key, value)}
            />
          ) : (
            <TextInput
              key={field.key}
              type="date"
              label={field.label}
              error={filterHint(field.key, values)}
              value={values[field.key] ?? ''}
              onChange={(e) => onChange(field.key, e.currentTarget.value)}
            />
          ),
        )}
      </SimpleGrid>
      {fields.some((f) => f.type === 'date') && (
        <Text size="xs" c="dimmed" mt="xs">
          {businessDaysNote()}
        </Text>
      )}
    </Card>
  );
}

/** Sends the text after a pause in typing (and at once on Enter), not one query per keystroke. */
function SearchInput(props: {
  label: string;
  placeholder: string;
  /** Why the text is not applied yet (a one-letter search). */
  hint?: string;
  value: string;
  onChange(value: string): void;
}) {
  const [text, setText] = useState(props.value);
  const send = useDebouncedCallback((value: string) => props.onChange(value), 300);
  useEffect(() => setText(props.value), [props.value]);
  return (
    <TextInput
      type="search"
      label={props.label}
      placeholder={props.placeholder}
      error={props.hint}
      value={text}
      onChange={(e) => {
        setText(e.currentTarget.value);
        send(e.currentTarget.value);
      }}
      onKeyDown={(e) => {
        if (e.key === 'Enter') props.onChange(text);
      }}
    />
  );
}
