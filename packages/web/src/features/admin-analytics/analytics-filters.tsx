import { Button, Grid, Group, NativeSelect, Paper, Text, TextInput } from '@mantine/core';
import {
  ANALYTICS_TEXTS,
  DATE_PRESETS,
  EVENT_TYPE_FILTER_ORDER,
  EVENT_TYPE_LABELS,
  presetRange,
} from '@uf/shared/analytics-dashboard';
import { CHANNELS } from '@uf/shared/channel';
import { businessClock, businessDaysNote } from '../../business-clock';
import { countryName } from './format';

const T = ANALYTICS_TEXTS.filters;

export type Filters = {
  startDate: string;
  endDate: string;
  eventType: string;
  country: string;
  channel: string;
  source: string;
  campaign: string;
  experiment: string;
  arm: string;
};

/** Spec §4: empty dates and 'all' for event type and country (and the attribution filters, issue 15). */
export const DEFAULT_FILTERS: Filters = {
  startDate: '',
  endDate: '',
  eventType: 'all',
  country: 'all',
  channel: 'all',
  source: 'all',
  campaign: 'all',
  experiment: 'all',
  arm: 'all',
};

/** An experiment the filter offers (issue 48): one that has started, with its arms. */
export type ExperimentChoice = { id: string; name: string; arms: { key: string; name: string }[] };

const A = ANALYTICS_TEXTS.attributionFilters;
const CHANNEL_OPTIONS = [
  { value: 'all', label: A.allChannels },
  ...CHANNELS.map((c) => ({ value: c, label: c })),
];

/** The options of a select: 'all' first, then the values seen, the chosen one kept when not among them. */
function optionsOf(all: string, values: readonly string[], chosen: string, label = (v: string) => v) {
  const list = chosen !== 'all' && !values.includes(chosen) ? [...values, chosen] : values;
  return [{ value: 'all', label: all }, ...list.map((v) => ({ value: v, label: label(v) }))];
}

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
  sources,
  campaigns,
  experiments,
  onChange,
}: {
  value: Filters;
  /** Country codes offered (spec §9: taken from topCountries). */
  countries: readonly string[];
  /** Sources and campaigns offered: the ones in the sources table. */
  sources: readonly string[];
  campaigns: readonly string[];
  /** The experiments that have started, newest first. */
  experiments: readonly ExperimentChoice[];
  onChange(next: Filters): void;
}) {
  const set = (key: keyof Filters) => (event: { currentTarget: { value: string } }) =>
    onChange({ ...value, [key]: event.currentTarget.value });
  const countryOptions = optionsOf(T.allCountries, countries, value.country, countryName);
  const experiment = experiments.find((e) => e.id === value.experiment);
  const experimentOptions = optionsOf(
    A.allExperiments,
    experiments.map((e) => e.id),
    value.experiment,
    (id) => experiments.find((e) => e.id === id)?.name ?? id,
  );
  const armOptions = optionsOf(
    A.allArms,
    experiment?.arms.map((a) => a.key) ?? [],
    value.arm,
    (key) => experiment?.arms.find((a) => a.key === key)?.name ?? key,
  );
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
        <Grid.Col span={{ base: 12, sm: 4, md: 2.5 }}>
          <NativeSelect
            label={A.channel}
            data={CHANNEL_OPTIONS}
            value={value.channel}
            onChange={set('channel')}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 4, md: 2.5 }}>
          <NativeSelect
            label={A.source}
            data={optionsOf(A.allSources, sources, value.source)}
            value={value.source}
            onChange={set('source')}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 4, md: 2.5 }}>
          <NativeSelect
            label={A.campaign}
            data={optionsOf(A.allCampaigns, campaigns, value.campaign)}
            value={value.campaign}
            onChange={set('campaign')}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4.5 }}>
          <Text size="xs" c="dimmed">
            {A.note}
          </Text>
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 6, md: 2.5 }}>
          <NativeSelect
            label={A.experiment}
            data={experimentOptions}
            value={value.experiment}
            // Another experiment's arms are not this one's: the arm goes back to all.
            onChange={(event) => onChange({ ...value, experiment: event.currentTarget.value, arm: 'all' })}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 6, md: 2.5 }}>
          <NativeSelect
            label={A.arm}
            data={armOptions}
            value={value.arm}
            disabled={value.experiment === 'all'}
            onChange={set('arm')}
          />
        </Grid.Col>
        {value.experiment !== 'all' && (
          <Grid.Col span={{ base: 12, md: 7 }}>
            <Text size="xs" c="dimmed">
              {A.experimentNote}
            </Text>
          </Grid.Col>
        )}
      </Grid>
      <Group gap="xs" mt="sm" role="group" aria-label="Date presets">
        {DATE_PRESETS.map((preset) => {
          const range = presetRange(preset, businessClock().today());
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
        <Text size="xs" c="dimmed">
          {businessDaysNote()}
        </Text>
      </Group>
    </Paper>
  );
}
