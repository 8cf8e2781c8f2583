import { Button, Grid, Group, NativeSelect, Paper, TextInput } from '@mantine/core';
import {
  ANALYTICS_TEXTS,
  DATE_PRESETS,
  EVENT_TYPE_FILTER_ORDER,
  EVENT_TYPE_LABELS,
  presetRange,
} from '@uf/shared/analytics-dashboard';
import { countryName } from './format';

const T = ANALYTICS_TEXTS.filters;

export type Filters = { startDate: string; endDate: string; eventType: string; country: string };

/** Spec §4: empty dates and 'all' for event type and country. */
export const DEFAULT_FILTERS: Filters = { startDate: '', endDate: '', eventType: 'all', country: 'all' };

export function isRangeInverted(f: Filters): boolean {
  return Boolean(f.startDate && f.endDate && f.endDate < f.startDate);
}

const EVENT_OPTIONS = [
  { value: 'all', label: T.allEvents },
  ...EVENT_TYPE_FILTER_ORDER.map((type) => ({ value: type, label: EVENT_TYPE_LABELS[type] })),
];

export function AnalyticsFilters({
  value,
  countries,
  onChange,
}: {
  value: Filters;
  /** Country codes offered (spec §9: taken from topCountries). */
  countries: readonly string[];
  onChange(next: Filters): void;
}) {
  const set = (key: keyof Filters) => (event: { currentTarget: { value: string } }) =>
    onChange({ ...value, [key]: event.currentTarget.value });
  const countryOptions = [
    { value: 'all', label: T.allCountries },
    ...countries.map((code) => ({ value: code, label: countryName(code) })),
  ];
  return (
    <Paper withBorder p="md" radius="md">
      <Grid align="flex-end">
        <Grid.Col span={{ base: 12, sm: 6, md: 2.5 }}>
          <TextInput
            type="date"
            label={T.startDate}
            value={value.startDate}
            max={value.endDate || undefined}
            onChange={set('startDate')}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 6, md: 2.5 }}>
          <TextInput
            type="date"
            label={T.endDate}
            value={value.endDate}
            min={value.startDate || undefined}
            onChange={set('endDate')}
            error={isRangeInverted(value) ? T.rangeInverted : undefined}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 6, md: 2.5 }}>
          <NativeSelect
            label={T.eventType}
            data={EVENT_OPTIONS}
            value={value.eventType}
            onChange={set('eventType')}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 6, md: 2.5 }}>
          <NativeSelect
            label={T.country}
            data={countryOptions}
            value={value.country}
            onChange={set('country')}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 2 }}>
          <Button variant="default" fullWidth onClick={() => onChange(DEFAULT_FILTERS)}>
            {T.clear}
          </Button>
        </Grid.Col>
      </Grid>
      <Group gap="xs" mt="sm" role="group" aria-label="Date presets">
        {DATE_PRESETS.map((preset) => {
          const range = presetRange(preset, new Date());
          const active = value.startDate === range.startDate && value.endDate === range.endDate;
          return (
            <Button
              key={preset}
              size="xs"
              variant={active ? 'filled' : 'light'}
              aria-pressed={active}
              onClick={() => onChange({ ...value, ...range })}
            >
              {preset}
            </Button>
          );
        })}
      </Group>
    </Paper>
  );
}
