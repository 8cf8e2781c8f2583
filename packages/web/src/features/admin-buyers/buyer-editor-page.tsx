import {
  Alert,
  Anchor,
  Button,
  Center,
  Checkbox,
  Container,
  Group,
  List,
  Loader,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  type TextInputProps,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { Link, useNavigate } from '@tanstack/react-router';
import {
  BUYER_ENCODINGS,
  BUYER_HTTP_METHODS,
  BUYER_TRANSFORMS,
  type BuyerView,
  CAP_PERIODS,
  MASK,
  WEEK_DAYS,
} from '@uf/shared/buyers';
import { ERROR_CODES } from '@uf/shared/errors';
import { US_STATE_CODES } from '@uf/shared/state-sites';
import { type FormEvent, type ReactNode, useMemo, useRef, useState } from 'react';
import { businessClock } from '../../business-clock';
import { notifySuccess } from '../../notify';
import { usePageMeta } from '../../page-meta';
import { appErrorOf, trpc } from '../../trpc';
import { useAdminSession, useLeaveWhenSignedOut } from '../admin-quality/admin-session';
import { CheckingAuthentication } from '../admin-shell/checking-authentication';
import {
  type BuyerDraft,
  blank,
  type CapDraft,
  configOf,
  draftOf,
  EQUALS_HELP,
  EQUALS_PLACEHOLDER,
  emptyCap,
  emptyField,
  emptyHeader,
  emptyRule,
  emptyWindow,
  errorAt,
  errorExactly,
  type FieldDraft,
  type FieldErrors,
  fieldErrorsOf,
  type HeaderDraft,
  LEAD_FIELD_CHOICES,
  move,
  type NumberText,
  newBuyerDraft,
  OUTCOME_CHOICES,
  type RuleDraft,
  type SavedBuyer,
  sentIndexes,
  updateBody,
  type WindowDraft,
} from './buyer-form';
import { BUYERS_LINK, buyerLink } from './buyer-links';
import { BuyerTryPanel } from './buyer-try-panel';
import { capsHelp, capUseWords, crossesMidnight } from './buyer-words';
import { ToSettlePanel } from './to-settle-panel';

// The buyer editor (issue 34): /admin/buyers/new and /admin/buyers/{id}. Everything a posting spec says —
// delivery, headers (secrets shown as •••• and kept unless changed), the field map, the response rules,
// filters, hours, caps, the return window and the error limit — saved as one body; the server's field
// errors show at their fields and all together above the form. An existing buyer can be tried out: a
// lead's exact request, and a test lead with the parsed answer.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TIME_ZONES = [
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Phoenix',
  'America/Los_Angeles',
  'America/Anchorage',
  'Pacific/Honolulu',
  'UTC',
];
const DAY_LABELS: Record<(typeof WEEK_DAYS)[number], string> = {
  mon: 'Mon',
  tue: 'Tue',
  wed: 'Wed',
  thu: 'Thu',
  fri: 'Fri',
  sat: 'Sat',
  sun: 'Sun',
};
const ENCODING_LABELS: Record<(typeof BUYER_ENCODINGS)[number], string> = {
  json: 'JSON body',
  form: 'Form body (x-www-form-urlencoded)',
  xml: 'XML body',
  query: 'Query string (no body)',
};
const PERIOD_LABELS: Record<(typeof CAP_PERIODS)[number], string> = {
  hour: 'Per hour',
  day: 'Per day',
  week: 'Per week',
  month: 'Per month',
  total: 'In total',
};

export function BuyerEditorPage({ id }: { id: string | null }) {
  const session = useAdminSession();
  const isValidId = id === null || UUID.test(id);
  const saved = trpc.admin.buyers.get.useQuery(
    { id: id ?? '' },
    { enabled: session.isSuccess && id !== null && isValidId, staleTime: 0 },
  );
  const { signedOut } = useLeaveWhenSignedOut(session, [session.error, saved.error]);
  const buyer = saved.data as BuyerView | undefined;
  usePageMeta({
    title: id === null ? 'New buyer' : buyer ? `Buyer ${buyer.name}` : 'Buyer',
    description: 'A lead buyer: where leads are posted, the fields it expects and how its answer is read.',
  });
  if (!session.isSuccess || signedOut) return <CheckingAuthentication />;

  let body: ReactNode;
  if (id === null) {
    body = <BuyerForm buyer={null} />;
  } else if (!isValidId || appErrorOf(saved.error)?.error === ERROR_CODES.notFound) {
    body = (
      <Stack align="center" gap="sm" py="xl" ta="center">
        <Title order={1}>Buyer not found</Title>
        <Text>No buyer has the id {id}: it was deleted, or never existed.</Text>
        <Anchor renderRoot={(props) => <Link {...props} {...BUYERS_LINK} />}>Back to Buyers</Anchor>
      </Stack>
    );
  } else if (saved.isError) {
    body = (
      <Alert color="red" title="Failed to load the buyer" maw={560}>
        <Button size="xs" variant="default" onClick={() => void saved.refetch()}>
          Retry
        </Button>
      </Alert>
    );
  } else if (!buyer) {
    body = (
      <Center py="xl">
        <Group gap="sm">
          <Loader size="sm" />
          <Text>Loading the buyer...</Text>
        </Group>
      </Center>
    );
  } else {
    body = <BuyerForm buyer={buyer} />;
  }
  return (
    <Container size="xl" py="lg" px={{ base: 'sm', md: 'lg' }}>
      {body}
    </Container>
  );
}

/**
 * A number typed as text, read when saved (the server names a value it refuses). Not Mantine's NumberInput:
 * its module would move into a chunk of its own that the router's preload lists name (ADR 053's budget).
 */
function NumberField({
  value,
  onChange,
  decimal = false,
  ...props
}: Omit<TextInputProps, 'value' | 'onChange'> & {
  value: NumberText;
  onChange: (value: string) => void;
  decimal?: boolean;
}) {
  return (
    <TextInput
      {...props}
      value={String(value)}
      onChange={(e) => onChange(e.currentTarget.value)}
      inputMode={decimal ? 'decimal' : 'numeric'}
      autoComplete="off"
    />
  );
}

/** The sections' frame: a titled card. */
function Section({ title, help, children }: { title: string; help?: ReactNode; children: ReactNode }) {
  const headingId = `buyer-section-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={2} size="h3" id={headingId}>
          {title}
        </Title>
        {help && (
          <Text size="sm" c="gray.7">
            {help}
          </Text>
        )}
        {children}
      </Stack>
    </Paper>
  );
}

/** A message under a list (the list's own refusal: too many rows, one cap per period…). */
function ListError({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <Text size="sm" c="red.9" role="alert">
      {message}
    </Text>
  );
}

function RowButtons({
  what,
  n,
  count,
  onMove,
  onRemove,
}: {
  what: string;
  n: number;
  count: number;
  onMove?: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  return (
    <Group gap={4} wrap="nowrap">
      {onMove && (
        <>
          <Button
            size="compact-sm"
            variant="default"
            aria-label={`Move ${what} ${n} up`}
            disabled={n === 1}
            onClick={() => onMove(-1)}
          >
            ↑
          </Button>
          <Button
            size="compact-sm"
            variant="default"
            aria-label={`Move ${what} ${n} down`}
            disabled={n === count}
            onClick={() => onMove(1)}
          >
            ↓
          </Button>
        </>
      )}
      <Button
        size="compact-sm"
        variant="subtle"
        color="red"
        aria-label={`Remove ${what} ${n}`}
        onClick={onRemove}
      >
        Remove
      </Button>
    </Group>
  );
}

function BuyerForm({ buyer }: { buyer: BuyerView | null }) {
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const create = trpc.admin.buyers.create.useMutation();
  const update = trpc.admin.buyers.update.useMutation();
  const [saved, setSaved] = useState<BuyerView | null>(buyer);
  const initial = useMemo(() => (saved ? draftOf(saved as SavedBuyer) : newBuyerDraft()), [saved]);
  const [draft, setDraft] = useState<BuyerDraft>(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const summaryRef = useRef<HTMLDivElement>(null);
  const isDirty = JSON.stringify(configOf(draft)) !== JSON.stringify(configOf(initial));

  const set = <K extends keyof BuyerDraft>(key: K, value: BuyerDraft[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));
  const setRow = <K extends 'headers' | 'fields' | 'rules' | 'windows' | 'caps'>(
    key: K,
    index: number,
    patch: Partial<BuyerDraft[K][number]>,
  ) =>
    setDraft((d) => ({
      ...d,
      [key]: (d[key] as BuyerDraft[K][number][]).map((row, i) => (i === index ? { ...row, ...patch } : row)),
    }));
  const removeRow = (key: 'headers' | 'fields' | 'rules' | 'windows' | 'caps', index: number) =>
    setDraft((d) => ({ ...d, [key]: (d[key] as unknown[]).filter((_, i) => i !== index) }));
  const moveRow = (key: 'fields' | 'rules', index: number, by: -1 | 1) =>
    setDraft((d) => ({ ...d, [key]: move(d[key] as unknown[], index, by) }));

  // The server numbers only the rows that were sent (blank rows are left out).
  const fieldIdx = sentIndexes(draft.fields, blank.field);
  const ruleIdx = sentIndexes(draft.rules, blank.rule);
  const windowIdx = sentIndexes(draft.windows, blank.window);
  const capIdx = sentIndexes(draft.caps, blank.cap);
  const at = (path: string) => errorAt(errors, path);
  const rowAt = (list: string, index: number | null, rest = '') =>
    index === null ? undefined : errorAt(errors, `${list}.${index}${rest}`);
  const rowExactly = (list: string, index: number | null, rest = '') =>
    index === null ? undefined : errorExactly(errors, `${list}.${index}${rest}`);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setRefusal(null);
    try {
      if (saved) {
        const next = (await update.mutateAsync(updateBody(saved.id, draft))) as BuyerView;
        utils.admin.buyers.get.setData({ id: next.id }, next);
        setSaved(next);
        setDraft(draftOf(next as SavedBuyer));
        setErrors({});
        notifySuccess('Buyer saved', next.name);
      } else {
        const created = (await create.mutateAsync(configOf(draft))) as BuyerView;
        utils.admin.buyers.get.setData({ id: created.id }, created);
        notifySuccess('Buyer created', `${created.name}: send it a test lead to check its rules.`);
        void navigate({ ...buyerLink(created.id), replace: true });
      }
    } catch (err) {
      const app = appErrorOf(err);
      setErrors(fieldErrorsOf(app?.fieldErrors));
      setRefusal(app?.message ?? 'The buyer was not saved. Please try again.');
      requestAnimationFrame(() => summaryRef.current?.scrollIntoView({ block: 'center' }));
    }
  };

  const messages = [...new Set(Object.values(errors))];
  const http = draft.kind === 'http';

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="center" gap="sm">
        <Title order={1}>{saved ? `Buyer ${saved.name}` : 'New buyer'}</Title>
        <Button variant="default" renderRoot={(props) => <Link {...props} {...BUYERS_LINK} />}>
          Back to Buyers
        </Button>
      </Group>
      {saved && <ToSettlePanel buyerId={saved.id} buyerName={saved.name} />}
      {saved && <BuyerTryPanel buyerId={saved.id} isDirty={isDirty} />}

      <form
        noValidate
        onSubmit={(e) => void submit(e)}
        aria-label={saved ? `Buyer ${saved.name}` : 'New buyer'}
      >
        <Stack gap="lg">
          {refusal && (
            <Alert color="red" title="Not saved" role="alert" ref={summaryRef}>
              {messages.length > 0 ? (
                <List size="sm" spacing={2}>
                  {messages.map((m) => (
                    <List.Item key={m}>{m}</List.Item>
                  ))}
                </List>
              ) : (
                refusal
              )}
            </Alert>
          )}

          <Section title="Buyer">
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="md">
              <TextInput
                label="Name"
                value={draft.name}
                onChange={(e) => set('name', e.currentTarget.value)}
                error={at('name')}
                required
                maxLength={200}
              />
              <NumberField
                label="Priority"
                description="Lower is offered first."
                value={draft.priority}
                onChange={(v) => set('priority', v)}
                error={at('priority')}
                required
              />
              <NumberField
                decimal
                label="Price (USD)"
                description="Per lead, unless its answer names a price."
                value={draft.price}
                onChange={(v) => set('price', v)}
                error={at('price')}
                leftSection="$"
                required
              />
              <NativeSelect
                label="Status"
                description={
                  saved?.status === 'paused' && saved.pausedReason
                    ? `Paused: ${saved.pausedReason}`
                    : 'A paused buyer is offered no lead.'
                }
                data={[
                  { value: 'active', label: 'Active' },
                  { value: 'paused', label: 'Paused' },
                ]}
                value={draft.status}
                onChange={(e) => set('status', e.currentTarget.value as BuyerDraft['status'])}
                error={at('status')}
              />
              <NumberField
                label="Return window (days)"
                description="A sold lead can be returned for this long (30 when empty)."
                value={draft.returnWindowDays}
                onChange={(v) => set('returnWindowDays', v)}
                error={at('returnWindowDays')}
                placeholder="30"
              />
              <NumberField
                label="Errors in a row before pausing"
                description="Errors, timeouts and cut answers in a row that pause the buyer (5 when empty); also the most posts in flight to it at once."
                value={draft.maxConsecutiveErrors}
                onChange={(v) => set('maxConsecutiveErrors', v)}
                error={at('maxConsecutiveErrors')}
                placeholder="5"
              />
            </SimpleGrid>
          </Section>

          <Section
            title="Delivery"
            help="Where the lead goes. Addresses must be https:// and public unless the server allows private ones; redirects are not followed."
          >
            <NativeSelect
              label="Send by"
              data={[
                { value: 'http', label: 'HTTP post to the buyer’s API' },
                { value: 'email', label: 'E-mail' },
              ]}
              value={draft.kind}
              onChange={(e) => set('kind', e.currentTarget.value as BuyerDraft['kind'])}
              maw={360}
            />
            <ListError message={errorExactly(errors, 'delivery') ?? errorExactly(errors, 'delivery.kind')} />
            {http ? (
              <>
                <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="md">
                  <NativeSelect
                    label="Method"
                    data={[...BUYER_HTTP_METHODS]}
                    value={draft.method}
                    onChange={(e) => set('method', e.currentTarget.value as BuyerDraft['method'])}
                    error={at('delivery.method')}
                  />
                  <NativeSelect
                    label="Encoding"
                    data={BUYER_ENCODINGS.map((e) => ({ value: e, label: ENCODING_LABELS[e] }))}
                    value={draft.encoding}
                    onChange={(e) => set('encoding', e.currentTarget.value as BuyerDraft['encoding'])}
                    error={at('delivery.encoding')}
                  />
                  {draft.encoding === 'xml' && (
                    <TextInput
                      label="XML root element"
                      placeholder="lead"
                      value={draft.xmlRoot}
                      onChange={(e) => set('xmlRoot', e.currentTarget.value)}
                      error={at('delivery.xmlRoot')}
                    />
                  )}
                  <NumberField
                    label="Timeout (ms)"
                    description="No answer in time is a timeout (10000 when empty)."
                    value={draft.timeoutMs}
                    onChange={(v) => set('timeoutMs', v)}
                    error={at('delivery.timeoutMs')}
                    placeholder="10000"
                  />
                </SimpleGrid>
                <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
                  <TextInput
                    label="URL"
                    placeholder="https://api.buyer.example/leads"
                    value={draft.url}
                    onChange={(e) => set('url', e.currentTarget.value)}
                    error={at('delivery.url')}
                    required
                    spellCheck={false}
                  />
                  <TextInput
                    label="Test URL (optional)"
                    description="Where test leads go; the URL when empty."
                    placeholder="https://sandbox.buyer.example/leads"
                    value={draft.testUrl}
                    onChange={(e) => set('testUrl', e.currentTarget.value)}
                    error={at('delivery.testUrl')}
                    spellCheck={false}
                  />
                </SimpleGrid>
                <HeadersEditor
                  rows={draft.headers}
                  error={at('delivery.headers') ?? at('delivery.secretHeaders')}
                  onChange={(i, patch) => setRow('headers', i, patch)}
                  onRemove={(i) => removeRow('headers', i)}
                  onAdd={() => set('headers', [...draft.headers, emptyHeader()])}
                />
              </>
            ) : (
              <TextInput
                label="Send to (one to five addresses)"
                description="Separated by commas. Each lead is e-mailed as name: value lines."
                placeholder="leads@buyer.example, ops@buyer.example"
                value={draft.emailTo}
                onChange={(e) => set('emailTo', e.currentTarget.value)}
                error={at('delivery.to')}
                spellCheck={false}
              />
            )}
          </Section>

          <Section
            title="Field map"
            help={
              <>
                What the buyer gets, in order. The name is a dot path (ContactData.FirstName nests objects in
                JSON and XML; a form or query sends the name as it is). Each value is a lead field or a
                constant, then its transforms in order, separated by |. Transforms:{' '}
                {BUYER_TRANSFORMS.join(', ')}.
              </>
            }
          >
            <ListError message={errorExactly(errors, 'fields')} />
            {draft.fields.length > 0 && (
              <Table.ScrollContainer minWidth={900}>
                <Table verticalSpacing={6} aria-label="Field map">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Name in the request</Table.Th>
                      <Table.Th>Source</Table.Th>
                      <Table.Th>Lead field or constant</Table.Th>
                      <Table.Th>Transforms</Table.Th>
                      <Table.Th>Order</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {draft.fields.map((f, i) => (
                      <FieldRow
                        key={f.key}
                        row={f}
                        n={i + 1}
                        count={draft.fields.length}
                        errors={{
                          to: rowAt('fields', fieldIdx[i] ?? null, '.to'),
                          value:
                            rowAt('fields', fieldIdx[i] ?? null, '.from') ??
                            rowAt('fields', fieldIdx[i] ?? null, '.value') ??
                            rowExactly('fields', fieldIdx[i] ?? null),
                          transforms: rowAt('fields', fieldIdx[i] ?? null, '.transforms'),
                        }}
                        onChange={(patch) => setRow('fields', i, patch)}
                        onMove={(by) => moveRow('fields', i, by)}
                        onRemove={() => removeRow('fields', i)}
                      />
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
            <Group>
              <Button
                variant="default"
                size="xs"
                onClick={() => set('fields', [...draft.fields, emptyField()])}
              >
                Add field
              </Button>
            </Group>
          </Section>

          <Section
            title="Response rules"
            help={`Checked in order: the first rule whose conditions all hold decides. Equals and "value matches" compare the value at the JSON or XML path. Equals: ${EQUALS_HELP} No rule matching, HTTP 5xx and network errors are errors; no answer within the timeout is a timeout.`}
          >
            <ListError message={errorExactly(errors, 'responseRules')} />
            {draft.rules.map((r, i) => (
              <RuleCard
                key={r.key}
                row={r}
                n={i + 1}
                count={draft.rules.length}
                error={(rest) => rowAt('responseRules', ruleIdx[i] ?? null, rest)}
                ruleError={
                  rowExactly('responseRules', ruleIdx[i] ?? null, '.when') ??
                  rowExactly('responseRules', ruleIdx[i] ?? null)
                }
                onChange={(patch) => setRow('rules', i, patch)}
                onMove={(by) => moveRow('rules', i, by)}
                onRemove={() => removeRow('rules', i)}
              />
            ))}
            <Group>
              <Button variant="default" size="xs" onClick={() => set('rules', [...draft.rules, emptyRule()])}>
                Add rule
              </Button>
            </Group>
          </Section>

          <Section
            title="Filters"
            help="Leads that do not pass are skipped for this buyer. Empty: every lead."
          >
            <ListError message={errorExactly(errors, 'filters')} />
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
              <NumberField
                label="Minimum age"
                value={draft.minAge}
                onChange={(v) => set('minAge', v)}
                error={at('filters.minAge')}
              />
              <NumberField
                label="Maximum age"
                value={draft.maxAge}
                onChange={(v) => set('maxAge', v)}
                error={at('filters.maxAge')}
              />
              <TextInput
                label="Sources (utm_source)"
                description="Separated by commas."
                placeholder="All sources (e.g. google, facebook)"
                value={draft.sources}
                onChange={(e) => set('sources', e.currentTarget.value)}
                error={at('filters.sources')}
                spellCheck={false}
              />
            </SimpleGrid>
            <Checkbox.Group
              label="States"
              description={
                draft.states.length === 0
                  ? 'None checked: every state.'
                  : `${draft.states.length} checked: ${draft.states.join(', ')}.`
              }
              value={draft.states}
              onChange={(v) =>
                set(
                  'states',
                  US_STATE_CODES.filter((code) => v.includes(code)),
                )
              }
              error={at('filters.states')}
            >
              <SimpleGrid cols={{ base: 5, sm: 9, lg: 13 }} spacing={6} verticalSpacing={6} mt={6}>
                {US_STATE_CODES.map((code) => (
                  <Checkbox key={code} value={code} label={code} size="xs" />
                ))}
              </SimpleGrid>
            </Checkbox.Group>
            {draft.states.length > 0 && (
              <Group>
                <Button variant="subtle" size="compact-xs" onClick={() => set('states', [])}>
                  Clear the states
                </Button>
              </Group>
            )}
            <Checkbox.Group
              label="Lead types"
              description="None checked: both."
              value={draft.leadTypes}
              onChange={(v) => set('leadTypes', v)}
              error={at('filters.leadTypes')}
            >
              <Group gap="md" mt={4}>
                <Checkbox value="website" label="Website leads" />
                <Checkbox value="api" label="API leads" />
              </Group>
            </Checkbox.Group>
          </Section>

          <Section
            title="Hours"
            help="Outside its hours the buyer is skipped. Times are in the buyer's own time zone; a window whose end is before its start crosses midnight (22:00 to 02:00 runs into the next day)."
          >
            <Checkbox
              label="Only at set hours"
              checked={draft.scheduled}
              onChange={(e) => set('scheduled', e.currentTarget.checked)}
            />
            <ListError message={errorExactly(errors, 'schedule')} />
            {draft.scheduled && (
              <>
                <TextInput
                  label="Time zone"
                  description="An IANA name, e.g. America/Chicago (suggestions as you type)."
                  list="buyer-time-zones"
                  value={draft.timeZone}
                  onChange={(e) => set('timeZone', e.currentTarget.value)}
                  error={at('schedule.timeZone')}
                  maw={360}
                  spellCheck={false}
                />
                <datalist id="buyer-time-zones">
                  {TIME_ZONES.map((zone) => (
                    <option key={zone} value={zone} />
                  ))}
                </datalist>
                <ListError message={errorExactly(errors, 'schedule.windows')} />
                {draft.windows.map((w, i) => (
                  <WindowRow
                    key={w.key}
                    row={w}
                    n={i + 1}
                    error={(rest) => rowAt('schedule.windows', windowIdx[i] ?? null, rest)}
                    windowError={rowExactly('schedule.windows', windowIdx[i] ?? null)}
                    onChange={(patch) => setRow('windows', i, patch)}
                    onRemove={() => removeRow('windows', i)}
                  />
                ))}
                <Group>
                  <Button
                    variant="default"
                    size="xs"
                    onClick={() => set('windows', [...draft.windows, emptyWindow()])}
                  >
                    Add window
                  </Button>
                </Group>
              </>
            )}
          </Section>

          <Section title="Caps" help={capsHelp(businessClock())}>
            <ListError message={errorExactly(errors, 'caps')} />
            {draft.caps.length > 0 && (
              // Scrolls within itself on a phone (issue 49: at 390 px it widened the page to 449 px, its
              // period select showing one letter and Remove cut off).
              <Table.ScrollContainer minWidth={620} maw={900}>
                <Table verticalSpacing={6} aria-label="Caps">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Period</Table.Th>
                      <Table.Th>Leads</Table.Th>
                      <Table.Th>Amount (USD)</Table.Th>
                      <Table.Th>Used</Table.Th>
                      <Table.Th>
                        <VisuallyHidden>Remove</VisuallyHidden>
                      </Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {draft.caps.map((c, i) => (
                      <CapRow
                        key={c.key}
                        row={c}
                        n={i + 1}
                        used={saved?.caps.find((u) => u.period === c.period)}
                        error={(rest) => rowAt('caps', capIdx[i] ?? null, rest)}
                        capError={rowExactly('caps', capIdx[i] ?? null)}
                        onChange={(patch) => setRow('caps', i, patch)}
                        onRemove={() => removeRow('caps', i)}
                      />
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
            <Group>
              <Button variant="default" size="xs" onClick={() => set('caps', [...draft.caps, emptyCap()])}>
                Add cap
              </Button>
            </Group>
          </Section>

          <Group gap="sm">
            <Button type="submit" loading={create.isPending || update.isPending}>
              {saved ? 'Save buyer' : 'Create buyer'}
            </Button>
            <Button
              variant="default"
              disabled={!isDirty}
              onClick={() => {
                setDraft(initial);
                setErrors({});
                setRefusal(null);
              }}
            >
              Discard changes
            </Button>
            {isDirty && (
              <Text size="sm" c="gray.7">
                Unsaved changes
              </Text>
            )}
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}

function HeadersEditor({
  rows,
  error,
  onChange,
  onRemove,
  onAdd,
}: {
  rows: HeaderDraft[];
  error: string | undefined;
  onChange: (index: number, patch: Partial<HeaderDraft>) => void;
  onRemove: (index: number) => void;
  onAdd: () => void;
}) {
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500}>
        Headers
      </Text>
      <Text size="xs" c="gray.7">
        A secret header (an API key) is never shown again: {MASK} keeps its saved value; type a new value to
        change it. Logs and previews show it as {MASK}.
      </Text>
      <ListError message={error} />
      {rows.length > 0 && (
        <Table verticalSpacing={6} aria-label="Headers" maw={900}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Value</Table.Th>
              <Table.Th>Secret</Table.Th>
              <Table.Th>
                <VisuallyHidden>Remove</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((h, i) => (
              <Table.Tr key={h.key}>
                <Table.Td>
                  <TextInput
                    aria-label={`Header ${i + 1} name`}
                    placeholder="api-key"
                    value={h.name}
                    onChange={(e) => onChange(i, { name: e.currentTarget.value })}
                    spellCheck={false}
                  />
                </Table.Td>
                <Table.Td>
                  <TextInput
                    aria-label={`Header ${i + 1} value`}
                    value={h.value}
                    onChange={(e) => onChange(i, { value: e.currentTarget.value })}
                    onFocus={(e) => {
                      // A kept secret is replaced, not edited: the mask is selected to be typed over.
                      if (h.value === MASK) e.currentTarget.select();
                    }}
                    autoComplete="off"
                    spellCheck={false}
                  />
                </Table.Td>
                <Table.Td>
                  <Checkbox
                    aria-label={`Header ${i + 1} is secret`}
                    checked={h.secret}
                    onChange={(e) => onChange(i, { secret: e.currentTarget.checked })}
                  />
                </Table.Td>
                <Table.Td>
                  <RowButtons what="header" n={i + 1} count={rows.length} onRemove={() => onRemove(i)} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Group>
        <Button variant="default" size="xs" onClick={onAdd}>
          Add header
        </Button>
      </Group>
    </Stack>
  );
}

function FieldRow({
  row,
  n,
  count,
  errors,
  onChange,
  onMove,
  onRemove,
}: {
  row: FieldDraft;
  n: number;
  count: number;
  errors: { to?: string; value?: string; transforms?: string };
  onChange: (patch: Partial<FieldDraft>) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  return (
    <Table.Tr>
      <Table.Td>
        <TextInput
          aria-label={`Field ${n} name`}
          placeholder="ContactData.FirstName"
          value={row.to}
          onChange={(e) => onChange({ to: e.currentTarget.value })}
          error={errors.to}
          spellCheck={false}
        />
      </Table.Td>
      <Table.Td>
        <NativeSelect
          aria-label={`Field ${n} source`}
          data={[
            { value: 'lead', label: 'Lead field' },
            { value: 'value', label: 'Constant' },
          ]}
          value={row.source}
          onChange={(e) => onChange({ source: e.currentTarget.value as FieldDraft['source'] })}
        />
      </Table.Td>
      <Table.Td>
        {row.source === 'lead' ? (
          <NativeSelect
            aria-label={`Field ${n} lead field`}
            data={[{ value: '', label: 'Choose a lead field' }, ...LEAD_FIELD_CHOICES]}
            value={row.from}
            onChange={(e) => onChange({ from: e.currentTarget.value })}
            error={errors.value}
          />
        ) : (
          <TextInput
            aria-label={`Field ${n} constant`}
            placeholder="your-token"
            value={row.value}
            onChange={(e) => onChange({ value: e.currentTarget.value })}
            error={errors.value}
            spellCheck={false}
          />
        )}
      </Table.Td>
      <Table.Td>
        <TextInput
          aria-label={`Field ${n} transforms`}
          placeholder="digits | substr:0:10"
          value={row.transforms}
          onChange={(e) => onChange({ transforms: e.currentTarget.value })}
          error={errors.transforms}
          spellCheck={false}
        />
      </Table.Td>
      <Table.Td>
        <RowButtons what="field" n={n} count={count} onMove={onMove} onRemove={onRemove} />
      </Table.Td>
    </Table.Tr>
  );
}

function RuleCard({
  row,
  n,
  count,
  error,
  ruleError,
  onChange,
  onMove,
  onRemove,
}: {
  row: RuleDraft;
  n: number;
  count: number;
  error: (rest: string) => string | undefined;
  ruleError: string | undefined;
  onChange: (patch: Partial<RuleDraft>) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const text = (key: keyof RuleDraft, label: string, path: string, placeholder?: string) => (
    <TextInput
      label={label}
      placeholder={placeholder}
      value={row[key]}
      onChange={(e) => onChange({ [key]: e.currentTarget.value })}
      error={error(path)}
      spellCheck={false}
    />
  );
  return (
    <Paper withBorder p="sm" bg="gray.0" role="group" aria-label={`Response rule ${n}`}>
      <Stack gap="xs">
        <Group justify="space-between">
          <Text size="sm" fw={600}>
            Rule {n}
          </Text>
          <RowButtons what="rule" n={n} count={count} onMove={onMove} onRemove={onRemove} />
        </Group>
        <ListError message={ruleError} />
        <SimpleGrid cols={{ base: 1, sm: 3, lg: 6 }} spacing="sm">
          {text('status', 'HTTP status', '.when.status', '200 or 2xx')}
          {text('json', 'JSON path', '.when.json', 'Result.Success')}
          {text('xml', 'XML path', '.when.xml', 'response.status')}
          {text('equals', 'Equals', '.when.equals', EQUALS_PLACEHOLDER)}
          {text('matches', 'Value matches (RE2 regex)', '.when.matches', '^dup')}
          {text('regex', 'Body matches (RE2 regex)', '.when.regex', 'accepted|success')}
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
          <NativeSelect
            label="Outcome"
            data={OUTCOME_CHOICES}
            value={row.outcome}
            onChange={(e) => onChange({ outcome: e.currentTarget.value as RuleDraft['outcome'] })}
            error={error('.outcome')}
          />
          {text('priceFrom', 'Price from (path)', '.priceFrom', 'Payout')}
          {text('reasonFrom', 'Reason from (path)', '.reasonFrom', 'Message')}
          {text('refFrom', 'Reference from (path)', '.refFrom', 'LeadId')}
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}

function WindowRow({
  row,
  n,
  error,
  windowError,
  onChange,
  onRemove,
}: {
  row: WindowDraft;
  n: number;
  error: (rest: string) => string | undefined;
  windowError: string | undefined;
  onChange: (patch: Partial<WindowDraft>) => void;
  onRemove: () => void;
}) {
  return (
    <Paper withBorder p="sm" role="group" aria-label={`Window ${n}`}>
      <Group align="flex-start" gap="md">
        <Checkbox.Group
          label={`Window ${n} days`}
          value={row.days}
          onChange={(v) => onChange({ days: v as WindowDraft['days'] })}
          error={error('.days')}
        >
          <Group gap="sm" mt={6}>
            {WEEK_DAYS.map((d) => (
              <Checkbox key={d} value={d} label={DAY_LABELS[d]} />
            ))}
          </Group>
        </Checkbox.Group>
        <TextInput
          label="Start (HH:MM)"
          placeholder="09:00"
          value={row.start}
          onChange={(e) => onChange({ start: e.currentTarget.value })}
          error={error('.start')}
          w={130}
        />
        <TextInput
          label="End (HH:MM)"
          placeholder="17:00"
          value={row.end}
          onChange={(e) => onChange({ end: e.currentTarget.value })}
          error={error('.end')}
          description={crossesMidnight(row.start, row.end) ? 'Ends the next day' : undefined}
          w={150}
        />
        <Stack gap={4} mt={24}>
          <RowButtons what="window" n={n} count={1} onRemove={onRemove} />
        </Stack>
      </Group>
      <ListError message={windowError} />
    </Paper>
  );
}

function CapRow({
  row,
  n,
  used,
  error,
  capError,
  onChange,
  onRemove,
}: {
  row: CapDraft;
  n: number;
  used: BuyerView['caps'][number] | undefined;
  error: (rest: string) => string | undefined;
  capError: string | undefined;
  onChange: (patch: Partial<CapDraft>) => void;
  onRemove: () => void;
}) {
  return (
    <Table.Tr>
      <Table.Td>
        <NativeSelect
          aria-label={`Cap ${n} period`}
          data={CAP_PERIODS.map((p) => ({ value: p, label: PERIOD_LABELS[p] }))}
          value={row.period}
          onChange={(e) => onChange({ period: e.currentTarget.value as CapDraft['period'] })}
          error={error('.period') ?? capError}
        />
      </Table.Td>
      <Table.Td>
        <NumberField
          aria-label={`Cap ${n} leads`}
          value={row.leads}
          onChange={(v) => onChange({ leads: v })}
          error={error('.leads')}
        />
      </Table.Td>
      <Table.Td>
        <NumberField
          decimal
          aria-label={`Cap ${n} amount in USD`}
          value={row.amount}
          onChange={(v) => onChange({ amount: v })}
          error={error('.amount')}
          leftSection="$"
        />
      </Table.Td>
      <Table.Td>
        <Text size="sm" c="gray.7" style={{ whiteSpace: 'nowrap' }}>
          {used ? capUseWords(used) : '—'}
        </Text>
      </Table.Td>
      <Table.Td>
        <RowButtons what="cap" n={n} count={1} onRemove={onRemove} />
      </Table.Td>
    </Table.Tr>
  );
}
