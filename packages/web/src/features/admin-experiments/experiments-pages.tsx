import {
  Alert,
  Badge,
  Button,
  Center,
  Container,
  Group,
  Loader,
  NativeSelect,
  NumberInput,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { Link, useNavigate } from '@tanstack/react-router';
import { plannedVisitorsFor, visitorsPerArm } from '@uf/shared/experiment-stats';
import {
  type ArmContent,
  MAX_ARMS,
  MIN_ARMS,
  PRIMARY_METRICS,
  type PrimaryMetric,
  TEXT_SLOTS,
  type TextSlot,
} from '@uf/shared/experiments';
import { useEffect, useState } from 'react';
import { notifyError, notifySuccess } from '../../notify';
import { usePageMeta } from '../../page-meta';
import { appErrorOf, trpc } from '../../trpc';
import { usd } from '../admin-buyers/buyer-words';
import { ConfirmDialog, type ConfirmRequest } from '../admin-leads/confirm-dialog';
import { useAdminSession, useLeaveWhenSignedOut } from '../admin-quality/admin-session';
import { CheckingAuthentication } from '../admin-shell/checking-authentication';

// Landing experiments' screens (issue 48, ADR 075), loaded on their own by the lead pages' route only when
// opened: the list (/admin/experiments), the editor of a new experiment or a draft (/admin/experiments/new,
// /admin/experiments/{id} while a draft) and an experiment's results with Start, Stop and Keep arm.

const METRIC_WORDS: Record<PrimaryMetric, string> = {
  revenue_per_visitor: 'Net revenue per visitor',
  accepted_lead_rate: 'Accepted leads per visitor',
  lead_rate: 'Leads per visitor',
};
const go = (navigate: ReturnType<typeof useNavigate>, id: string) =>
  void navigate({ to: '/admin/$table/{-$id}', params: { table: 'experiments', id } });

export function ExperimentPages({ path }: { path: string }) {
  const segment = path.split('/')[3];
  if (!segment) return <ExperimentsListPage />;
  return segment === 'new' ? (
    <ExperimentEditor key="new" id={null} />
  ) : (
    <ExperimentPage key={segment} id={segment} />
  );
}

function Shell({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Container size="xl" py="lg" px={{ base: 'sm', md: 'lg' }}>
      <Stack gap="lg">
        <Group justify="space-between" align="center" gap="sm">
          <Title order={1}>{title}</Title>
          <Group gap="xs">
            <Button
              variant="default"
              renderRoot={(props) => (
                <Link {...props} to="/admin/$table/{-$id}" params={{ table: 'experiments' }} />
              )}
            >
              Experiments
            </Button>
            <Button variant="default" renderRoot={(props) => <Link {...props} to="/admin/leads" />}>
              Back to Leads
            </Button>
          </Group>
        </Group>
        {children}
      </Stack>
    </Container>
  );
}

function statusBadge(e: { status: string; rollout: string | null }) {
  if (e.rollout) return <Badge color="grape">Rollout of {e.rollout}</Badge>;
  return (
    <Badge color={e.status === 'running' ? 'green' : e.status === 'draft' ? 'gray' : 'dark'}>
      {e.status}
    </Badge>
  );
}

function ExperimentsListPage() {
  usePageMeta({
    title: 'Experiments',
    description: 'Landing experiments judged by what a visitor is worth.',
  });
  const session = useAdminSession();
  const list = trpc.admin.experiments.list.useQuery(undefined, { enabled: session.isSuccess, staleTime: 0 });
  const { signedOut } = useLeaveWhenSignedOut(session, [session.error, list.error]);
  const navigate = useNavigate();
  if (!session.isSuccess || signedOut) return <CheckingAuthentication />;
  return (
    <Shell title="Experiments">
      <Group>
        <Button onClick={() => go(navigate, 'new')}>New experiment</Button>
      </Group>
      {list.isLoading ? (
        <Center>
          <Loader />
        </Center>
      ) : (list.data ?? []).length === 0 ? (
        <Text>No experiments yet.</Text>
      ) : (
        <Table.ScrollContainer minWidth={700}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Arms</Table.Th>
                <Table.Th>Days running</Table.Th>
                <Table.Th>Visitors</Table.Th>
                <Table.Th>Verdict</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(list.data ?? []).map((e) => (
                <Table.Tr key={e.id}>
                  <Table.Td>
                    <Link to="/admin/$table/{-$id}" params={{ table: 'experiments', id: e.id }}>
                      {e.name}
                    </Link>
                  </Table.Td>
                  <Table.Td>{statusBadge(e)}</Table.Td>
                  <Table.Td>{e.arms.map((a) => `${a.name} (${a.weight} %)`).join(', ')}</Table.Td>
                  <Table.Td>{e.daysRunning}</Table.Td>
                  <Table.Td>{e.visitors.toLocaleString('en-US')}</Table.Td>
                  <Table.Td>{e.verdict ?? 'Not enough data yet'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Shell>
  );
}

type ArmDraft = { key: string; name: string; weight: number; content: ArmContent };
type Draft = {
  name: string;
  hypothesis: string;
  primaryMetric: PrimaryMetric;
  plannedVisitors: number;
  arms: ArmDraft[];
};

const newDraft = (): Draft => ({
  name: '',
  hypothesis: '',
  primaryMetric: 'revenue_per_visitor',
  plannedVisitors: plannedVisitorsFor(2),
  arms: [
    { key: 'control', name: 'Control', weight: 50, content: {} },
    { key: 'b', name: 'Variant B', weight: 50, content: {} },
  ],
});

/** Opens an arm's page as a visitor would see it, in a window of a phone's or a laptop's width (not counted). */
function openPreview(id: string, arm: string, width: number, height: number) {
  window.open(
    `/?arm=${encodeURIComponent(arm)}&experiment=${encodeURIComponent(id)}`,
    `preview-${arm}-${width}`,
    `width=${width},height=${height}`,
  );
}

function Previews({ id, arm }: { id: string; arm: string }) {
  return (
    <Group gap="xs">
      <Button size="xs" variant="light" onClick={() => openPreview(id, arm, 390, 844)}>
        Preview on a phone
      </Button>
      <Button size="xs" variant="light" onClick={() => openPreview(id, arm, 1280, 800)}>
        Preview on a laptop
      </Button>
    </Group>
  );
}

/** The widths the preview shows an arm at, with the scale each is drawn at on the editor. */
const PREVIEW_SCREENS = [
  { label: 'phone', width: 390, height: 844, scale: 0.42 },
  { label: 'laptop', width: 1280, height: 800, scale: 0.3 },
] as const;
/** How long typing must pause before the preview is rendered again. */
const PREVIEW_DEBOUNCE_MS = 400;

/**
 * An arm's page as its content would be served (rendered on the server, as a running arm is), at a
 * phone's and a laptop's width, redrawn as the admin types — saved or not. The frames are sandboxed
 * without scripts (the page is whole without its app), so a preview is never counted anywhere and its form
 * cannot be sent.
 */
function ArmPreview({ name, content }: { name: string; content: ArmContent }) {
  const preview = trpc.admin.experiments.preview.useMutation();
  const [html, setHtml] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const key = JSON.stringify(content);
  const { mutateAsync } = preview;
  useEffect(() => {
    let current = true;
    const timer = setTimeout(() => {
      mutateAsync({ content: JSON.parse(key) as ArmContent })
        .then((answer) => {
          if (!current) return;
          setHtml(answer.html);
          setFailed(null);
        })
        .catch((err: unknown) => {
          if (current) setFailed(appErrorOf(err)?.message ?? 'The preview could not be drawn.');
        });
    }, PREVIEW_DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [key, mutateAsync]);
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>
        Preview
      </Text>
      {failed && (
        <Text size="sm" c="red.8" role="alert">
          {failed}
        </Text>
      )}
      <Group align="flex-start" gap="md">
        {PREVIEW_SCREENS.map((screen) => (
          <div key={screen.label}>
            <Text size="xs" c="gray.7">
              On a {screen.label} ({screen.width} px wide)
            </Text>
            <div
              style={{
                width: screen.width * screen.scale,
                height: screen.height * screen.scale,
                overflow: 'hidden',
                border: '1px solid var(--mantine-color-gray-4)',
                borderRadius: 4,
              }}
            >
              {html === null ? (
                <Center h="100%">
                  <Loader size="sm" />
                </Center>
              ) : (
                <iframe
                  title={`${name} on a ${screen.label}`}
                  srcDoc={html}
                  // No script runs (no allow-scripts); the page's own origin, so its stylesheets load
                  // as they do on the site (the build marks them crossorigin).
                  sandbox="allow-same-origin"
                  style={{
                    width: screen.width,
                    height: screen.height,
                    border: 0,
                    transform: `scale(${screen.scale})`,
                    transformOrigin: '0 0',
                  }}
                />
              )}
            </div>
          </div>
        ))}
      </Group>
    </Stack>
  );
}

function ExperimentEditor({ id, initial }: { id: string | null; initial?: Draft }) {
  usePageMeta({ title: 'Experiment', description: 'A landing experiment.' });
  const session = useAdminSession();
  const { signedOut } = useLeaveWhenSignedOut(session, [session.error]);
  const navigate = useNavigate();
  const create = trpc.admin.experiments.create.useMutation();
  const update = trpc.admin.experiments.update.useMutation();
  const [draft, setDraft] = useState<Draft>(initial ?? newDraft());
  const [errors, setErrors] = useState<string[]>([]);
  const [baseline, setBaseline] = useState(5);
  const [lift, setLift] = useState(20);
  if (!session.isSuccess || signedOut) return <CheckingAuthentication />;

  const perArm = visitorsPerArm(baseline / 100, lift / 100);
  const setArm = (i: number, patch: Partial<ArmDraft>) =>
    setDraft((d) => ({ ...d, arms: d.arms.map((a, k) => (k === i ? { ...a, ...patch } : a)) }));
  const setSlot = (i: number, slot: keyof ArmContent, value: string | boolean | undefined) =>
    setDraft((d) => ({
      ...d,
      arms: d.arms.map((a, k) => {
        if (k !== i) return a;
        const content = { ...a.content };
        if (value === undefined || value === '') delete content[slot];
        else Object.assign(content, { [slot]: value });
        return { ...a, content };
      }),
    }));

  const save = async () => {
    setErrors([]);
    const body = { ...draft, hypothesis: draft.hypothesis || undefined };
    try {
      const saved = id ? await update.mutateAsync({ id, ...body }) : await create.mutateAsync(body);
      notifySuccess('Experiment saved', saved.name);
      go(navigate, saved.id);
    } catch (err) {
      const app = appErrorOf(err);
      setErrors(
        app?.fieldErrors?.map((f) => `${f.field}: ${f.message}`) ?? [app?.message ?? 'Saving failed'],
      );
    }
  };

  return (
    <Shell title={id ? 'Edit experiment' : 'New experiment'}>
      {errors.length > 0 && (
        <Alert color="red" title="Not saved" role="alert">
          {errors.map((e) => (
            <Text key={e}>{e}</Text>
          ))}
        </Alert>
      )}
      <Paper withBorder p="md">
        <Stack>
          <TextInput
            label="Name"
            required
            value={draft.name}
            onChange={(e) => setDraft({ ...draft, name: e.currentTarget.value })}
          />
          <Textarea
            label="Hypothesis"
            value={draft.hypothesis}
            onChange={(e) => setDraft({ ...draft, hypothesis: e.currentTarget.value })}
          />
          <NativeSelect
            label="Primary metric"
            value={draft.primaryMetric}
            data={PRIMARY_METRICS.map((m) => ({ value: m, label: METRIC_WORDS[m] }))}
            onChange={(e) => setDraft({ ...draft, primaryMetric: e.currentTarget.value as PrimaryMetric })}
          />
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <NumberInput
              label="Today’s lead rate (%)"
              value={baseline}
              min={0.1}
              max={90}
              decimalScale={2}
              onChange={(v) => setBaseline(Number(v) || 0)}
            />
            <NumberInput
              label="Smallest lift worth finding (%)"
              value={lift}
              min={1}
              max={500}
              onChange={(v) => setLift(Number(v) || 0)}
            />
            <NumberInput
              label="Planned visitors (all arms)"
              value={draft.plannedVisitors}
              min={200}
              onChange={(v) => setDraft({ ...draft, plannedVisitors: Number(v) || 0 })}
            />
          </SimpleGrid>
          <Group gap="sm">
            <Text size="sm">
              Power calculation: {perArm.toLocaleString('en-US')} visitors per arm to find a {lift} % lift on
              a {baseline} % rate (95 % confidence, 80 % power):{' '}
              {(perArm * draft.arms.length).toLocaleString('en-US')} in all.
            </Text>
            <Button
              size="xs"
              variant="light"
              onClick={() => setDraft({ ...draft, plannedVisitors: perArm * draft.arms.length })}
            >
              Use it
            </Button>
          </Group>
        </Stack>
      </Paper>
      <Text size="sm" c="gray.7">
        The first arm is the control: the page as it is. Only these can vary; the form, its labels, the
        consent text and the legal links are the same in every arm. Weights are whole percentages summing to
        100.
      </Text>
      {draft.arms.map((arm, i) => (
        <Paper withBorder p="md" key={`${i}-${arm.key}`}>
          <Stack gap="xs">
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <TextInput
                label="Key"
                value={arm.key}
                onChange={(e) => setArm(i, { key: e.currentTarget.value })}
              />
              <TextInput
                label="Name"
                value={arm.name}
                onChange={(e) => setArm(i, { name: e.currentTarget.value })}
              />
              <NumberInput
                label="Weight (%)"
                value={arm.weight}
                min={1}
                max={99}
                onChange={(v) => setArm(i, { weight: Number(v) || 0 })}
              />
            </SimpleGrid>
            {i === 0 ? (
              <Text size="sm">Control: the page as it is.</Text>
            ) : (
              <>
                {(Object.keys(TEXT_SLOTS) as TextSlot[]).map((slot) => (
                  <TextInput
                    key={slot}
                    label={`${slot} — ${TEXT_SLOTS[slot].words} (at most ${TEXT_SLOTS[slot].max})`}
                    placeholder="The page’s own"
                    value={arm.content[slot] ?? ''}
                    maxLength={TEXT_SLOTS[slot].max}
                    onChange={(e) => setSlot(i, slot, e.currentTarget.value)}
                  />
                ))}
                <NativeSelect
                  label="On a phone"
                  value={arm.content.formFirst === undefined ? '' : String(arm.content.formFirst)}
                  data={[
                    { value: '', label: 'As the page is (the form first)' },
                    { value: 'true', label: 'The form before the explanation' },
                    { value: 'false', label: 'The explanation before the form' },
                  ]}
                  onChange={(e) => {
                    const v = e.currentTarget.value;
                    setSlot(i, 'formFirst', v === '' ? undefined : v === 'true');
                  }}
                />
                {draft.arms.length > MIN_ARMS && (
                  <Group>
                    <Button
                      size="xs"
                      color="red"
                      variant="subtle"
                      onClick={() => setDraft({ ...draft, arms: draft.arms.filter((_, k) => k !== i) })}
                    >
                      Remove arm
                    </Button>
                  </Group>
                )}
              </>
            )}
            <ArmPreview name={arm.name} content={arm.content} />
          </Stack>
        </Paper>
      ))}
      <Group>
        {draft.arms.length < MAX_ARMS && (
          <Button
            variant="default"
            onClick={() =>
              setDraft({
                ...draft,
                arms: [
                  ...draft.arms,
                  {
                    key: `v${draft.arms.length + 1}`,
                    name: `Variant ${draft.arms.length + 1}`,
                    weight: 0,
                    content: {},
                  },
                ],
              })
            }
          >
            Add arm
          </Button>
        )}
        <Button onClick={() => void save()} loading={create.isPending || update.isPending}>
          Save draft
        </Button>
      </Group>
    </Shell>
  );
}

const pct = (x: number) => `${(x * 100).toFixed(2)} %`;

/** One arm's lift with both intervals drawn on one axis (0 = no change). */
function IntervalChart({
  sequential,
  fixed,
  estimate,
}: {
  sequential: { low: number; high: number };
  fixed: { low: number; high: number };
  estimate: number;
}) {
  const span = Math.max(Math.abs(sequential.low), Math.abs(sequential.high), 1e-9) * 1.1;
  const x = (v: number) => 150 + (v / span) * 140;
  return (
    <svg
      width={300}
      height={44}
      role="img"
      aria-label="Lift with its intervals: always-valid (thick), fixed-horizon (thin)"
    >
      <line x1={150} x2={150} y1={0} y2={44} stroke="#888" strokeDasharray="3 3" />
      <line x1={x(sequential.low)} x2={x(sequential.high)} y1={14} y2={14} stroke="#1c7ed6" strokeWidth={6} />
      <line x1={x(fixed.low)} x2={x(fixed.high)} y1={30} y2={30} stroke="#868e96" strokeWidth={2} />
      <circle cx={x(estimate)} cy={14} r={4} fill="#0b3d91" />
    </svg>
  );
}

function ExperimentPage({ id }: { id: string }) {
  usePageMeta({ title: 'Experiment', description: 'A landing experiment’s results.' });
  const session = useAdminSession();
  const experiment = trpc.admin.experiments.get.useQuery(
    { id },
    { enabled: session.isSuccess, staleTime: 0, retry: false },
  );
  const results = trpc.admin.experiments.results.useQuery(
    { id },
    { enabled: session.isSuccess && !!experiment.data && experiment.data.status !== 'draft', staleTime: 0 },
  );
  const { signedOut } = useLeaveWhenSignedOut(session, [session.error]);
  const start = trpc.admin.experiments.start.useMutation();
  const stop = trpc.admin.experiments.stop.useMutation();
  const [confirm, setConfirm] = useState<ConfirmRequest | null>(null);
  if (!session.isSuccess || signedOut) return <CheckingAuthentication />;
  if (experiment.isLoading) return <CheckingAuthentication />;
  const e = experiment.data;
  if (!e) {
    return (
      <Shell title="Experiment not found">
        <Text>There is no such experiment.</Text>
      </Shell>
    );
  }
  if (e.status === 'draft') {
    return (
      <>
        <ExperimentEditor
          id={e.id}
          initial={{
            name: e.name,
            hypothesis: e.hypothesis ?? '',
            primaryMetric: e.primaryMetric,
            plannedVisitors: e.plannedVisitors,
            arms: e.arms.map((a) => ({ key: a.key, name: a.name, weight: a.weight, content: a.content })),
          }}
        />
        <Container size="xl" pb="lg">
          <Button
            color="green"
            onClick={() =>
              setConfirm({
                title: 'Start this experiment?',
                message:
                  'From now on each visitor of the landing page is served one arm and counted. The arms cannot change once it has started.',
                confirmLabel: 'Start',
                onConfirm: () =>
                  void start
                    .mutateAsync({ id })
                    .then(() => void experiment.refetch())
                    .catch((err) =>
                      notifyError('Not started', appErrorOf(err)?.message ?? 'Starting failed'),
                    ),
              })
            }
          >
            Start
          </Button>
        </Container>
        <ConfirmDialog request={confirm} onClose={() => setConfirm(null)} />
      </>
    );
  }

  const r = results.data;
  const doStop = (keep?: string) =>
    void stop
      .mutateAsync(keep ? { id, keep } : { id })
      .then(() => {
        notifySuccess(
          'Stopped',
          keep ? `${keep} is now served to everyone` : 'The page is back to the control',
        );
        void experiment.refetch();
        void results.refetch();
      })
      .catch((err) => notifyError('Not stopped', appErrorOf(err)?.message ?? 'Stopping failed'));

  return (
    <Shell title={e.name}>
      <Group gap="sm">
        {statusBadge(e)}
        <Text size="sm">
          {METRIC_WORDS[e.primaryMetric]} · planned {e.plannedVisitors.toLocaleString('en-US')} visitors
          {r ? ` · ${r.daysRunning} days` : ''}
        </Text>
      </Group>
      {e.hypothesis && <Text>{e.hypothesis}</Text>}
      <Group gap="xs">
        {e.status === 'running' && (
          <>
            <Button
              color="red"
              onClick={() =>
                setConfirm({
                  title: 'Stop this experiment?',
                  message: 'Every visitor will see the control (the page as it is) again. Counting stops.',
                  confirmLabel: 'Stop',
                  onConfirm: () => doStop(),
                })
              }
            >
              Stop
            </Button>
            {e.arms.slice(1).map((a) => (
              <Button
                key={a.key}
                variant="light"
                onClick={() =>
                  setConfirm({
                    title: `Keep ${a.name}?`,
                    message: `The experiment stops and ${a.name} is served to everyone from now on (a rollout, counted nowhere), until you stop the rollout.`,
                    confirmLabel: `Keep ${a.name}`,
                    onConfirm: () => doStop(a.key),
                  })
                }
              >
                Keep {a.name}
              </Button>
            ))}
          </>
        )}
        {e.rollout && (
          <Button
            color="red"
            variant="light"
            onClick={() =>
              setConfirm({
                title: 'Stop the rollout?',
                message: 'Every visitor will see the control (the page as it is) again.',
                confirmLabel: 'Stop the rollout',
                onConfirm: () => doStop(),
              })
            }
          >
            Stop the rollout of {e.rollout}
          </Button>
        )}
      </Group>
      {!r ? (
        <Center>
          <Loader />
        </Center>
      ) : (
        <Stack>
          {!r.srm.ok && (
            <Alert
              color="red"
              title="The visitors are not split as the weights ask (sample-ratio mismatch)"
              role="alert"
            >
              p = {r.srm.pValue.toExponential(2)}. Do not trust these results until the cause is found. Likely
              causes: a cache or proxy serving one arm’s page to others; bots or monitoring counted in one
              arm; the weights changed by hand in the database; one arm’s page failing or slower, so visitors
              leave before it is served.
            </Alert>
          )}
          <Paper withBorder p="md">
            <Title order={2} size="h4" mb="xs">
              Verdict
            </Title>
            <Text>
              {r.verdict ??
                'Not enough data yet: every arm needs 100 visitors and 25 conversions, and the experiment 7 days. Until then no verdict is given.'}
            </Text>
            <Text size="sm" c="gray.7" mt="xs">
              {r.salesInReturnWindow} sale{r.salesInReturnWindow === 1 ? ' is' : 's are'} still inside the
              buyer’s return window: net revenue may still fall.{' '}
              {r.multipleExposureRate > 0
                ? `${pct(r.multipleExposureRate)} of visitors saw more than one arm.`
                : ''}
            </Text>
          </Paper>
          <Table.ScrollContainer minWidth={900}>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  {[
                    'Arm',
                    'Visitors',
                    'Leads',
                    'Accepted',
                    'Sold',
                    'Returned',
                    'Revenue',
                    'Net',
                    'Leads / visitor',
                    'Accepted / visitor',
                    'Net / visitor',
                    '',
                  ].map((h) => (
                    <Table.Th key={h}>{h}</Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {r.arms.map((a) => (
                  <Table.Tr key={a.key}>
                    <Table.Td>
                      {a.name} ({a.weight} %){a.control ? ' · control' : ''}
                    </Table.Td>
                    <Table.Td>{a.visitors}</Table.Td>
                    <Table.Td>{a.leads}</Table.Td>
                    <Table.Td>{a.accepted}</Table.Td>
                    <Table.Td>{a.sold}</Table.Td>
                    <Table.Td>{a.returned}</Table.Td>
                    <Table.Td>{usd(a.revenue)}</Table.Td>
                    <Table.Td>{usd(a.net)}</Table.Td>
                    <Table.Td>{pct(a.leadRate)}</Table.Td>
                    <Table.Td>{pct(a.acceptedLeadRate)}</Table.Td>
                    <Table.Td>{usd(a.revenuePerVisitor)}</Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Previews id={e.id} arm={a.key} />
                        <Button
                          size="xs"
                          variant="subtle"
                          aria-label={`${a.name}: its visitors and leads by source`}
                          renderRoot={(props) => (
                            <Link
                              {...props}
                              to="/admin/analytics"
                              search={{ experiment: e.id, arm: a.key }}
                            />
                          )}
                        >
                          By source
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {r.comparisons.map((c) => {
            const fmt = c.metric === 'revenue_per_visitor' ? usd : pct;
            const rel = (iv: { low: number; high: number } | null) =>
              iv ? `${pct(iv.low)} to ${pct(iv.high)}` : '—';
            return (
              <Paper withBorder p="md" key={c.arm}>
                <Title order={2} size="h4">
                  {c.arm} against the control — {METRIC_WORDS[c.metric]}
                </Title>
                <Text size="sm">
                  {fmt(c.treatment)} against {fmt(c.control)}: {fmt(c.absolute)}
                  {c.relative !== null ? ` (${pct(c.relative)})` : ''}
                </Text>
                <IntervalChart
                  sequential={c.sequential.absolute}
                  fixed={c.fixed.absolute}
                  estimate={c.absolute}
                />
                <Text size="sm">
                  <b>Always-valid 95 % interval</b> (valid however often you look):{' '}
                  {fmt(c.sequential.absolute.low)} to {fmt(c.sequential.absolute.high)}; relative{' '}
                  {rel(c.sequential.relative)}.
                </Text>
                <Text size="sm" c="gray.7">
                  Fixed-horizon 95 % interval — valid only when read once, at the planned{' '}
                  {e.plannedVisitors.toLocaleString('en-US')} visitors: {fmt(c.fixed.absolute.low)} to{' '}
                  {fmt(c.fixed.absolute.high)}; relative {rel(c.fixed.relative)}; p = {c.pValue.toFixed(3)}.
                </Text>
              </Paper>
            );
          })}
        </Stack>
      )}
      <ConfirmDialog request={confirm} onClose={() => setConfirm(null)} />
    </Shell>
  );
}
