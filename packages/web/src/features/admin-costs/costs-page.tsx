import {
  Alert,
  Button,
  Center,
  Container,
  Group,
  List,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { AdCostImportAnswer, AdCostRow } from '@uf/shared/ad-costs';
import { useId, useRef, useState } from 'react';
import { businessClock, businessDaysNote } from '../../business-clock';
import { notifyError, notifySuccess } from '../../notify';
import { usePageMeta } from '../../page-meta';
import { appErrorOf, trpc } from '../../trpc';
import { ConfirmDialog, type ConfirmRequest } from '../admin-leads/confirm-dialog';
import { useAdminSession, useLeaveWhenSignedOut } from '../admin-quality/admin-session';
import { CheckingAuthentication } from '../admin-shell/checking-authentication';
import {
  type CostDeletion,
  deletionWords,
  fileRequest,
  importWords,
  KNOWN_SOURCES,
  lastThirtyDays,
  type ManualDay,
  type ManualField,
  manualFieldErrors,
  manualRequest,
  RECOGNISED_REPORTS,
  ROW_MEANS,
  rangeProblem,
  reportWords,
  usd,
} from './cost-form';

// The Ad costs screen (issue 35), /admin/costs: a platform's campaign report uploaded as it was downloaded,
// a day entered by hand, and what was imported over a range of business days, with Delete.

const EMPTY_DAY: ManualDay = { date: '', source: '', campaign: '', cost: '' };

export function CostsPage() {
  usePageMeta({
    title: 'Ad costs',
    description: 'What each campaign’s clicks cost per day, imported from the ad platforms’ reports.',
  });
  const session = useAdminSession();
  const [range, setRange] = useState(() => lastThirtyDays(businessClock().today()));
  const problem = rangeProblem(range.from, range.to);
  const list = trpc.admin.adCosts.list.useQuery(range, {
    enabled: session.isSuccess && problem === null,
    staleTime: 0,
  });
  const { signedOut } = useLeaveWhenSignedOut(session, [session.error, list.error]);
  if (!session.isSuccess || signedOut) return <CheckingAuthentication />;

  return (
    <Container size="xl" py="lg" px={{ base: 'sm', md: 'lg' }}>
      <Stack gap="lg">
        <Group justify="space-between" align="center" gap="sm">
          <Title order={1}>Ad costs</Title>
          <Button variant="default" renderRoot={(props) => <Link {...props} to="/admin/leads" />}>
            Back to Leads
          </Button>
        </Group>
        <Text c="gray.7" size="sm" maw={900}>
          What each campaign’s clicks cost per day, in USD, by the source and campaign its clicks are tagged
          with (utm_source, utm_campaign). Importing a day again replaces it, so a report can be imported
          again whole.
        </Text>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <UploadReport onImported={() => void list.refetch()} />
          <ManualEntry onImported={() => void list.refetch()} />
        </SimpleGrid>
        <ImportedCosts
          range={range}
          onRange={setRange}
          problem={problem}
          list={list}
          onDeleted={() => void list.refetch()}
        />
      </Stack>
    </Container>
  );
}

function ImportAnswer({ answer }: { answer: AdCostImportAnswer }) {
  const notable = answer.skipped.length > 0 || answer.merged.length > 0;
  return (
    <Alert color={notable ? 'yellow' : 'green'} title="Import done" role="status">
      <Text size="sm">{importWords(answer)}</Text>
      {answer.merged.length > 0 && (
        <List size="sm" mt="xs" aria-label="Merged lines">
          {answer.merged.map((m) => (
            <List.Item key={m.lines.join(',')}>
              Lines {m.lines.join(', ')}: one row for {m.date}, {m.source} / {m.campaign} (case and spaces
              aside), {usd(m.cost)} in all
            </List.Item>
          ))}
        </List>
      )}
      {answer.skipped.length > 0 && (
        <List size="sm" mt="xs" aria-label="Skipped lines">
          {answer.skipped.map((s) => (
            <List.Item key={`${s.line}:${s.reason}`}>
              Line {s.line}: {s.reason}
            </List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}

function UploadReport({ onImported }: { onImported: () => void }) {
  const inputId = useId();
  const hintId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [answer, setAnswer] = useState<AdCostImportAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Issue 47: every row refused by a row's limits, each with its line and why.
  const [badLines, setBadLines] = useState<string[]>([]);
  const importCosts = trpc.admin.adCosts.import.useMutation();

  const upload = async () => {
    setAnswer(null);
    setError(null);
    setBadLines([]);
    if (!file) {
      setError('Choose a report file first.');
      return;
    }
    const built = fileRequest(await file.text());
    if (!built.ok) {
      setError(built.error);
      return;
    }
    try {
      const result = (await importCosts.mutateAsync(built.request)) as AdCostImportAnswer;
      setAnswer(result);
      notifySuccess('Ad costs imported', importWords(result));
      onImported();
    } catch (err) {
      const app = appErrorOf(err);
      setError(app?.message ?? 'Failed to import the file');
      const lines = (app?.fieldErrors ?? []).map((f) => f.message);
      setBadLines(lines.length > 1 ? lines : []);
    }
  };

  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={2} size="h3">
          Upload a report
        </Title>
        <Text size="sm" id={hintId}>
          A campaign report by day, downloaded as CSV or TSV. Recognised by its header line:
        </Text>
        <List size="sm">
          {RECOGNISED_REPORTS.map((r) => (
            <List.Item key={r.platform}>{reportWords(r)}</List.Item>
          ))}
        </List>
        <Text size="xs" c="gray.7">
          Lines above the header, totals and footers are left out. Costs must be in USD. The report’s days are
          taken as days in {businessClock().zone}: set the ad accounts to the same time zone.
        </Text>
        <div>
          <Text component="label" htmlFor={inputId} size="sm" fw={500} display="block" mb={4}>
            Report file
          </Text>
          <input
            ref={input}
            id={inputId}
            type="file"
            accept=".csv,.tsv,text/csv,text/tab-separated-values"
            aria-describedby={hintId}
            onChange={(e) => {
              setFile(e.currentTarget.files?.[0] ?? null);
              setAnswer(null);
              setError(null);
            }}
          />
        </div>
        <Group>
          <Button onClick={() => void upload()} loading={importCosts.isPending} disabled={!file}>
            Import report
          </Button>
        </Group>
        {error && (
          <Alert color="red" title="Not imported" role="alert">
            {error}
            {badLines.length > 0 && (
              <List size="sm" mt="xs" aria-label="Lines refused">
                {badLines.map((line) => (
                  <List.Item key={line}>{line}</List.Item>
                ))}
              </List>
            )}
          </Alert>
        )}
        {answer && <ImportAnswer answer={answer} />}
      </Stack>
    </Paper>
  );
}

function ManualEntry({ onImported }: { onImported: () => void }) {
  const [day, setDay] = useState<ManualDay>(() => ({ ...EMPTY_DAY, date: businessClock().today() }));
  const [errors, setErrors] = useState<Partial<Record<ManualField, string>>>({});
  const [answer, setAnswer] = useState<AdCostImportAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const importCosts = trpc.admin.adCosts.import.useMutation();
  const sourcesId = useId();
  const set = (field: ManualField) => (value: string) => {
    setDay((d) => ({ ...d, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const save = async () => {
    setAnswer(null);
    setError(null);
    const built = manualRequest(day);
    if (!built.ok) {
      setErrors(built.errors);
      return;
    }
    try {
      const result = (await importCosts.mutateAsync(built.request)) as AdCostImportAnswer;
      setAnswer(result);
      if (result.skipped.length === 0) {
        notifySuccess('Ad cost saved', `${built.request.rows[0].campaign}, ${built.request.rows[0].date}`);
        setDay((d) => ({ ...d, campaign: '', cost: '' }));
      }
      onImported();
    } catch (err) {
      const app = appErrorOf(err);
      setErrors(manualFieldErrors(app?.fieldErrors));
      setError(app?.message ?? 'Failed to save the cost');
    }
  };

  return (
    <Paper withBorder p="md">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
        noValidate
      >
        <Stack gap="sm">
          <Title order={2} size="h3">
            Enter a day by hand
          </Title>
          <Text size="sm">
            One campaign’s cost on one day, for a platform without a report. Entering a day again replaces it.
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput
              type="date"
              label={businessClock().label('Date')}
              required
              value={day.date}
              onChange={(e) => set('date')(e.currentTarget.value)}
              error={errors.date}
            />
            <TextInput
              label="Source"
              description="The utm_source of the clicks"
              required
              list={sourcesId}
              value={day.source}
              onChange={(e) => set('source')(e.currentTarget.value)}
              error={errors.source}
            />
            <TextInput
              label="Campaign"
              description="As in its utm_campaign"
              required
              value={day.campaign}
              onChange={(e) => set('campaign')(e.currentTarget.value)}
              error={errors.campaign}
            />
            <TextInput
              label="Cost (USD)"
              description="Dollars, e.g. 120.50"
              required
              inputMode="decimal"
              leftSection={<span aria-hidden="true">$</span>}
              value={day.cost}
              onChange={(e) => set('cost')(e.currentTarget.value)}
              error={errors.cost}
            />
          </SimpleGrid>
          <datalist id={sourcesId}>
            {KNOWN_SOURCES.map((s) => (
              <option key={s} value={s} />
            ))}
          </datalist>
          <Group>
            <Button type="submit" loading={importCosts.isPending}>
              Add day
            </Button>
          </Group>
          {error && (
            <Alert color="red" title="Not saved" role="alert">
              {error}
            </Alert>
          )}
          {answer && (answer.skipped.length > 0 || answer.merged.length > 0) && (
            <ImportAnswer answer={answer} />
          )}
        </Stack>
      </form>
    </Paper>
  );
}

type ListQuery = ReturnType<typeof trpc.admin.adCosts.list.useQuery>;

function ImportedCosts({
  range,
  onRange,
  problem,
  list,
  onDeleted,
}: {
  range: { from: string; to: string };
  onRange: (r: { from: string; to: string }) => void;
  problem: string | null;
  list: ListQuery;
  onDeleted: () => void;
}) {
  const clock = businessClock();
  const remove = trpc.admin.adCosts.remove.useMutation();
  const [confirm, setConfirm] = useState<ConfirmRequest | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [delSource, setDelSource] = useState('');
  const deleteSourcesId = useId();
  const [delCampaign, setDelCampaign] = useState('');
  const data = list.data as { rows: AdCostRow[]; totalCost: number } | undefined;
  const rows = data?.rows ?? [];
  const sources = [...new Set(rows.map((r) => r.source))].sort();

  const askDelete = (d: CostDeletion) =>
    setConfirm({
      title: 'Delete ad cost',
      message: deletionWords(d),
      confirmLabel: 'Delete',
      onConfirm: async () => {
        setDeleteError(null);
        try {
          const { deleted } = await remove.mutateAsync(d);
          notifySuccess('Ad cost deleted', `${deleted.toLocaleString('en-US')} rows deleted. ${ROW_MEANS}`);
        } catch (err) {
          const message = appErrorOf(err)?.message ?? 'Failed to delete the cost';
          setDeleteError(message);
          notifyError('Not deleted', message);
        } finally {
          onDeleted();
        }
      },
    });

  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={2} size="h3">
          What was imported
        </Title>
        <Group align="flex-end" gap="sm">
          <TextInput
            type="date"
            label="From"
            value={range.from}
            onChange={(e) => onRange({ ...range, from: e.currentTarget.value })}
          />
          <TextInput
            type="date"
            label="To"
            value={range.to}
            onChange={(e) => onRange({ ...range, to: e.currentTarget.value })}
          />
          <Button variant="default" onClick={() => onRange(lastThirtyDays(clock.today()))}>
            Last 30 days
          </Button>
        </Group>
        <Text size="xs" c="gray.7">
          {businessDaysNote()}
        </Text>
        {deleteError && (
          <Alert
            color="red"
            title="Not deleted"
            role="alert"
            withCloseButton
            closeButtonLabel="Dismiss"
            onClose={() => setDeleteError(null)}
          >
            {deleteError}
          </Alert>
        )}
        {problem ? (
          <Alert color="yellow" title="No range">
            {problem}
          </Alert>
        ) : list.isError ? (
          <Alert color="red" title="Failed to load the ad costs" maw={560}>
            <Text size="sm" mb="xs">
              {appErrorOf(list.error)?.message ?? 'Try again.'}
            </Text>
            <Button size="xs" variant="default" onClick={() => void list.refetch()}>
              Retry
            </Button>
          </Alert>
        ) : !data ? (
          <Center py="xl">
            <Group gap="sm">
              <Loader size="sm" />
              <Text>Loading ad costs...</Text>
            </Group>
          </Center>
        ) : rows.length === 0 ? (
          <Stack gap={4} py="md">
            <Text fw={600}>No ad cost in these days.</Text>
            <Text size="sm" c="gray.7">
              Upload a campaign report or enter a day by hand above, or choose other dates.
            </Text>
          </Stack>
        ) : (
          <>
            <Table.ScrollContainer minWidth={800}>
              <Table striped withTableBorder verticalSpacing="xs" fz="sm" aria-label="Imported ad costs">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Date</Table.Th>
                    <Table.Th>Source</Table.Th>
                    <Table.Th>Campaign</Table.Th>
                    <Table.Th style={{ textAlign: 'right' }}>Cost</Table.Th>
                    <Table.Th>{clock.label('Imported at')}</Table.Th>
                    <Table.Th>Actions</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((r) => (
                    <Table.Tr key={`${r.date}:${r.source}:${r.campaign}`}>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{r.date}</Table.Td>
                      <Table.Td>{r.source}</Table.Td>
                      <Table.Td>{r.campaign}</Table.Td>
                      <Table.Td style={{ textAlign: 'right', whiteSpace: 'nowrap' }}>{usd(r.cost)}</Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{clock.formatShort(r.importedAt)}</Table.Td>
                      <Table.Td>
                        <Button
                          size="compact-sm"
                          color="red"
                          variant="light"
                          aria-label={`Delete ${r.source} ${r.campaign} on ${r.date}`}
                          onClick={() =>
                            askDelete({ source: r.source, campaign: r.campaign, from: r.date, to: r.date })
                          }
                        >
                          Delete
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
                <Table.Tfoot>
                  <Table.Tr>
                    <Table.Th colSpan={3} scope="row">
                      Total ({rows.length.toLocaleString('en-US')} rows: a campaign’s day each)
                    </Table.Th>
                    <Table.Td style={{ textAlign: 'right', whiteSpace: 'nowrap', fontWeight: 700 }}>
                      {usd(data.totalCost)}
                    </Table.Td>
                    <Table.Td colSpan={2} />
                  </Table.Tr>
                </Table.Tfoot>
              </Table>
            </Table.ScrollContainer>
            <form
              onSubmit={(e) => {
                e.preventDefault();
                const source = delSource.trim();
                const campaign = delCampaign.trim();
                if (source) askDelete({ source, campaign: campaign || undefined, ...range });
              }}
            >
              <Group align="flex-end" gap="sm">
                <TextInput
                  label="Source to delete"
                  description="One of the sources above"
                  list={deleteSourcesId}
                  value={delSource}
                  onChange={(e) => setDelSource(e.currentTarget.value)}
                />
                <datalist id={deleteSourcesId}>
                  {sources.map((s) => (
                    <option key={s} value={s} />
                  ))}
                </datalist>
                <TextInput
                  label="Campaign to delete"
                  description="Empty: every campaign of the source"
                  value={delCampaign}
                  onChange={(e) => setDelCampaign(e.currentTarget.value)}
                />
                <Button type="submit" color="red" variant="light" disabled={!delSource.trim()}>
                  Delete in these days
                </Button>
              </Group>
            </form>
          </>
        )}
      </Stack>
      <ConfirmDialog request={confirm} onClose={() => setConfirm(null)} />
    </Paper>
  );
}
