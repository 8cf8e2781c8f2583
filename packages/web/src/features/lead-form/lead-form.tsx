import { Anchor, Button, Checkbox, Grid, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { Link } from '@tanstack/react-router';
import { CONSENT_TEXT } from '@uf/shared/consent';
import { BIRTH_DAYS, BIRTH_MONTHS, BIRTH_YEARS } from '@uf/shared/constants';
import { ERROR_CODES } from '@uf/shared/errors';
import { LANDING_FORM_FIELDS } from '@uf/shared/landing-step';
import {
  createLeadSubmissionSchema,
  EMAIL_PATTERN,
  EMPTY_LEAD_FORM,
  type LeadFormValues,
} from '@uf/shared/lead.schema';
import { LEAD_FORM_NOTICES, PUBLIC_TOASTS } from '@uf/shared/messages';
import { LEAD_FORM_ID } from '@uf/shared/quality-fields';
import {
  type ChangeEvent,
  type FocusEvent,
  lazy,
  memo,
  Suspense,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { flushSync } from 'react-dom';
import { afterNextPaint } from '../../after-paint';
import { appErrorOf } from '../../api-error';
import { useAppConfig } from '../../app-config';
import { enteredValues } from '../../entered-values';
import { focusFirstInvalid } from '../../focus-invalid';
import { useFormTakeover } from '../../form-takeover';
import { notifyError } from '../../notify';
import { usePressHold } from './after-press';
import { HoneypotField } from './honeypot-field';
import { ensureFormToken, qualityEvidence } from './quality-evidence';
import { sessionAttribution, storedSessionId } from './session-attribution';
import { consentEvidence, loadTrustedForm } from './trusted-form';

export type LeadFormProps = {
  onSubmitted: (leadId: string, values: LeadFormValues) => void;
  /** Called on every submit attempt (analytics form_submit). */
  onSubmitAttempt?: () => void;
  /** Called when the consent box becomes checked (analytics survey_started). */
  onConsentChecked?: () => void;
  /** What the server rendered the form with after a post it refused (values kept, messages per field). */
  initial?: {
    values: Record<string, string>;
    errors: Record<string, string>;
    attribution?: Record<string, string>;
    /** The server's "Did you mean …?" for the e-mail entered (issue 33). */
    emailSuggestion?: string;
  };
  /** The first field's id (the hero's call to action links to it). */
  firstFieldId?: string;
};

/** The lead form's own fields (the posted form also names its step: LANDING_FORM_FIELDS.step). */
const FIELD_NAMES = Object.keys(EMPTY_LEAD_FORM) as (keyof LeadFormValues)[];

/**
 * Every field flagged "dirty" from the start. Nothing here reads Mantine's dirty state, yet each field's
 * first key (and the adoption of what was typed before the app ran) flipped its flag, which renders the
 * whole form: 15–30 ms of script inside that key on a slow phone (issue 36). Flagged already, it never flips
 * while the visitor types.
 */
const ALL_DIRTY = Object.fromEntries(FIELD_NAMES.map((name) => [name, true]));

/** The server's values as the form's (consent always starts unticked: it must be given again). */
function initialValues(values: Record<string, string> | undefined): LeadFormValues {
  const kept = Object.fromEntries(
    FIELD_NAMES.filter((k) => k !== 'consentGiven' && typeof values?.[k] === 'string').map((k) => [
      k,
      values?.[k],
    ]),
  );
  return { ...EMPTY_LEAD_FORM, ...kept };
}

const ReviewConfirmDialog = lazy(() =>
  import('./review-confirm-dialog').then((m) => ({ default: m.ReviewConfirmDialog })),
);

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
// Native selects: the platform's own picker on phones, and no popover code in the landing bundle.
const withPlaceholder = (label: string, options: { value: string; label: string }[]) => [
  { value: '', label, disabled: true },
  ...options,
];
const monthOptions = withPlaceholder(
  'Month',
  BIRTH_MONTHS.map((m, i) => ({ value: m, label: MONTH_NAMES[i] ?? m })),
);
const dayOptions = withPlaceholder(
  'Day',
  BIRTH_DAYS.map((d) => ({ value: d, label: d })),
);
const yearOptions = withPlaceholder(
  'Year',
  BIRTH_YEARS.map((y) => ({ value: y, label: y })),
);

/**
 * A likely typo's correction, once the address is complete. Its code loads when first needed (the
 * landing page's first interaction carries none of it).
 */
async function suggestionFor(email: string): Promise<string | null> {
  const value = email.trim();
  if (!EMAIL_PATTERN.test(value)) return null;
  const { suggestEmail } = await import('@uf/shared/email-suggestion');
  return suggestEmail(value);
}

// The fields rendered again only when their own props change (issue 36): a whole-form render (a submit's
// validation, a message shown or cleared; a field's first key and the consent tap too, before ALL_DIRTY)
// re-rendered all nine Mantine fields, a hundred birth-date options and the consent text's links, 50–100 ms
// on a slow phone. Their handlers are made once (below), so a field whose value and message did not change
// is left alone.
const FormTextInput = memo(TextInput);
const FormNativeSelect = memo(NativeSelect);
const FormCheckbox = memo(Checkbox);

/** The consent box's label, built once: it never changes. */
const CONSENT_LABEL = (
  <Text size="xs" component="span">
    {CONSENT_TEXT}{' '}
    <Anchor component={Link} to="/terms" size="xs" target="_blank">
      Terms &amp; Conditions
    </Anchor>{' '}
    ·{' '}
    <Anchor component={Link} to="/privacy" size="xs" target="_blank">
      Privacy Policy
    </Anchor>
  </Text>
);

/** Whether a submit is under way, kept outside the form's state: setting it renders the button alone. */
function createBusyFlag() {
  let busy = false;
  const listeners = new Set<() => void>();
  return {
    get: () => busy,
    set: (next: boolean) => {
      busy = next;
      for (const listener of listeners) listener();
    },
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
type BusyFlag = ReturnType<typeof createBusyFlag>;

/**
 * "Search Now", busy while its submit is under way. The busy look (Mantine's `data-loading`: the label
 * slides out under a veil) and `disabled` come in the tap's own frame; the spinner one frame later. Mantine
 * mounts it through a transition whose first step is a synchronous render in a frame callback, which ran
 * before the tap's frame was painted (25–35 ms on a slow phone, issue 36); it fades in over 150 ms anyway.
 */
function SubmitButton({ busy }: { busy: BusyFlag }) {
  const pending = useSyncExternalStore(busy.subscribe, busy.get, () => false);
  const [spinner, setSpinner] = useState(false);
  useEffect(() => {
    if (!pending) {
      setSpinner(false);
      return;
    }
    let current = true;
    void afterNextPaint().then(() => current && setSpinner(true));
    return () => {
      current = false;
    };
  }, [pending]);
  return (
    // Never disabled while the app loads: a tap before it runs is held for it, or posted (ADR 057).
    <Button type="submit" size="lg" fullWidth loading={spinner} mod={{ loading: pending }} disabled={pending}>
      Search Now
    </Button>
  );
}

/** 128 random bits as hex (getRandomValues works on plain HTTP too, unlike randomUUID). */
const randomKey = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

export function LeadForm({
  onSubmitted,
  onSubmitAttempt,
  onConsentChecked,
  initial,
  firstFieldId,
}: LeadFormProps) {
  const { supportEmail, trustedFormEnabled } = useAppConfig();
  useEffect(() => loadTrustedForm(trustedFormEnabled), [trustedFormEnabled]);
  useEffect(() => ensureFormToken(), []);
  const schema = useMemo(() => createLeadSubmissionSchema(supportEmail), [supportEmail]);
  const form = useForm<LeadFormValues>({
    // Uncontrolled: a keystroke re-rendered the whole form (all nine fields, a hundred birth-date options),
    // a task of 40–100 ms per key on a slow phone; the fields hold their own values, and focus ("touched")
    // is kept without a render too (ADR 068).
    mode: 'uncontrolled',
    initialValues: initialValues(initial?.values),
    initialErrors: initial?.errors ?? {},
    initialDirty: ALL_DIRTY,
    validate: schemaResolver(schema, { sync: true }),
    validateInputOnBlur: true,
  });
  const [busy] = useState(createBusyFlag);
  const press = usePressHold();
  // One Idempotency-Key for this form's submissions: re-sending the same lead (its first answer lost)
  // gets the original id back instead of "Already Submitted" (issue 22).
  const retryKey = useRef<string | undefined>(undefined);
  const formRef = useRef<HTMLFormElement>(null);
  // What the fields' handlers (made once, below) call: the form and callbacks of the last render.
  const latest = useRef({ form, onConsentChecked });
  useLayoutEffect(() => {
    latest.current = { form, onConsentChecked };
  });
  // The form works before the app runs (a plain post to the server, ADR 057). When the app takes it over,
  // what the fields hold becomes the form's state, and a submit made while the app loaded is sent again.
  useFormTakeover(formRef, (element) => {
    const entered = enteredValues(element, FIELD_NAMES);
    if (Object.keys(entered).length === 0) return;
    form.setValues(entered as Partial<LeadFormValues>);
    if (entered.consentGiven === true) onConsentChecked?.();
  });
  // Spec §2: the Review & Confirm dialog exists but the normal flow never opens it.
  const [reviewOpened, setReviewOpened] = useState(false);
  // Issue 33: "Did you mean …?" under the e-mail field, offered when the visitor leaves the field (and on
  // a page the server rendered after a refused post, without the app), never blocking the submit.
  const [emailSuggestion, setEmailSuggestion] = useState<string | null>(initial?.emailSuggestion ?? null);

  /** Checks the form and sends the lead; the button is busy already. */
  const send = async () => {
    onSubmitAttempt?.();
    const { form } = latest.current;
    // At once (not at React's next turn): focus then goes to the first field whose message is shown.
    const checked = flushSync(() => form.validate());
    const { hasErrors } = checked instanceof Promise ? await checked : checked;
    if (hasErrors) {
      // Every invalid field shows its message at once; focus goes to the first of them.
      busy.set(false);
      focusFirstInvalid(formRef.current);
      return;
    }
    const values = form.getValues();
    let sent = false;
    try {
      // The API client is its own chunk, loaded on the first submit (prefetched when the form starts).
      const { publicApi } = await import('../../public-api');
      retryKey.current ??= randomKey();
      const { id } = await publicApi.lead.submit.mutate(
        {
          ...values,
          consentGiven: values.consentGiven ? 'true' : 'false',
          ...consentEvidence(),
          attribution: sessionAttribution(),
          sessionId: storedSessionId(),
          ...qualityEvidence(formRef.current),
        },
        { context: { idempotencyKey: retryKey.current } },
      );
      onSubmitted(id, values);
      sent = true;
    } catch (err) {
      const app = appErrorOf(err);
      if (app?.error === ERROR_CODES.duplicateEmail) {
        notifyError(PUBLIC_TOASTS.duplicateEmail.title, PUBLIC_TOASTS.duplicateEmail.message);
        // The toast is gone in 5 s: what to do stays beside the field (issue 37), as without the app.
        form.setFieldError('email', LEAD_FORM_NOTICES.duplicateEmail);
      } else if (app?.error === ERROR_CODES.ageRestriction) {
        notifyError(PUBLIC_TOASTS.ageRestriction.title, PUBLIC_TOASTS.ageRestriction.message);
      } else {
        notifyError(PUBLIC_TOASTS.submitFailed.title, PUBLIC_TOASTS.submitFailed.message);
      }
      if (app?.fieldErrors) {
        form.setErrors(Object.fromEntries(app.fieldErrors.map((e) => [e.field, e.message])));
        focusFirstInvalid(formRef.current);
      }
    } finally {
      // Sent: busy until the next step replaces the form (a new form starts idle). Set idle here, the
      // button changed a store the step's transition had just read, and React rendered the whole step
      // again synchronously, beside the spinner's exit transition: a task of 60 ms and more on a slow phone.
      if (!sent) busy.set(false);
    }
  };

  /**
   * A submit shows the button busy first — in the frame right after the tap, with nothing else rendered —
   * and only then checks the form and sends it (issue 36: checking it and rendering the whole form first
   * took 200 ms and more on a slow phone). One at a time: a submit while one is under way is ignored.
   */
  const submit = () => {
    if (busy.get()) return;
    busy.set(true);
    void afterNextPaint().then(send);
  };

  /**
   * Each field's handlers, made once so a field is not rendered again for new functions (memo above).
   * They call the form of the last render. A field's blur is validated after the click when it comes from
   * a press: the message would push what was pressed ("Search Now", issue 13; the consent box, issue 37)
   * down between the finger landing and the click, and the click would miss it.
   */
  const handlers = useMemo(() => {
    const inputProps = (path: keyof LeadFormValues) => latest.current.form.getInputProps(path);
    const make = (path: keyof LeadFormValues) => ({
      // Named, so what was entered before the app started can be found (above) and autofill knows them.
      name: path,
      'data-path': path,
      onChange: (event: ChangeEvent<HTMLInputElement> | ChangeEvent<HTMLSelectElement>) =>
        inputProps(path).onChange(event),
      onFocus: () => inputProps(path).onFocus?.(),
      onBlur: (event: FocusEvent<HTMLElement>) => {
        if (path === 'email') {
          const value = (event.target as HTMLInputElement).value;
          void suggestionFor(value).then(setEmailSuggestion);
        }
        const { onBlur } = inputProps(path);
        press.later(() => onBlur?.(event));
      },
    });
    const consent = () => latest.current.form.getInputProps('consentGiven', { type: 'checkbox' });
    return {
      fields: Object.fromEntries(FIELD_NAMES.map((path) => [path, make(path)])) as Record<
        keyof LeadFormValues,
        ReturnType<typeof make>
      >,
      consent: {
        'data-path': 'consentGiven',
        onChange: (event: ChangeEvent<HTMLInputElement>) => {
          consent().onChange(event);
          if (event.currentTarget.checked) latest.current.onConsentChecked?.();
        },
        onFocus: () => consent().onFocus?.(),
        onBlur: () => consent().onBlur?.(),
      },
    };
  }, [press]);

  /** A field's props: what this render says about it (its value, its message), and its handlers. */
  const field = (path: keyof LeadFormValues) => {
    const props = form.getInputProps(path);
    return { defaultValue: props.defaultValue, error: props.error, ...handlers.fields[path] };
  };
  const consentProps = form.getInputProps('consentGiven', { type: 'checkbox' });

  return (
    // A real form (ADR 057): without the app the browser posts it to the server, which answers with the
    // next step. Never GET: the visitor's details must not end up in a URL.
    <form
      ref={formRef}
      id={LEAD_FORM_ID}
      method="post"
      action="/#search"
      noValidate
      aria-label="Unclaimed money search"
      {...press.formProps}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <input type="hidden" name={LANDING_FORM_FIELDS.step} value="lead" />
      {initial?.attribution && Object.keys(initial.attribution).length > 0 && (
        <input
          type="hidden"
          name={LANDING_FORM_FIELDS.attribution}
          value={JSON.stringify(initial.attribution)}
        />
      )}
      <Stack gap="sm">
        <Grid gap="sm">
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <FormTextInput
              label="First Name"
              autoComplete="given-name"
              id={firstFieldId}
              {...field('firstName')}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <FormTextInput label="Last Name" autoComplete="family-name" {...field('lastName')} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 8 }}>
            <FormTextInput label="Street Address" autoComplete="street-address" {...field('streetAddress')} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 4 }}>
            <FormTextInput
              label="ZIP Code"
              autoComplete="postal-code"
              inputMode="numeric"
              maxLength={10}
              {...field('zipCode')}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            {/* Keyed (uncontrolled form): taking the suggestion below puts the corrected address in the field. */}
            <FormTextInput
              key={form.key('email')}
              label="Email Address"
              type="email"
              autoComplete="email"
              {...field('email')}
            />
            {emailSuggestion && (
              // Issue 33: a likely typo of a major provider. Only offered: the submit is never blocked.
              <Text size="xs" mt={4} aria-live="polite">
                Did you mean{' '}
                <Anchor
                  component="button"
                  type="button"
                  size="xs"
                  onClick={() => {
                    form.setFieldValue('email', emailSuggestion);
                    setEmailSuggestion(null);
                  }}
                >
                  {emailSuggestion}
                </Anchor>
                ?
              </Text>
            )}
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <FormTextInput label="Phone Number" type="tel" autoComplete="tel-national" {...field('phone')} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, xs: 4 }}>
            <FormNativeSelect label="Birth Month" data={monthOptions} {...field('birthMonth')} />
          </Grid.Col>
          <Grid.Col span={{ base: 6, xs: 4 }}>
            <FormNativeSelect label="Birth Day" data={dayOptions} {...field('birthDay')} />
          </Grid.Col>
          <Grid.Col span={{ base: 6, xs: 4 }}>
            <FormNativeSelect label="Birth Year" data={yearOptions} {...field('birthYear')} />
          </Grid.Col>
        </Grid>
        <FormCheckbox
          defaultChecked={consentProps.defaultChecked}
          error={consentProps.error}
          {...handlers.consent}
          name="consentGiven"
          value="true"
          aria-invalid={consentProps.error ? true : undefined}
          label={CONSENT_LABEL}
        />
        <SubmitButton busy={busy} />
      </Stack>
      {reviewOpened && (
        <Suspense fallback={null}>
          <ReviewConfirmDialog
            opened={reviewOpened}
            onDisregard={() => setReviewOpened(false)}
            onCloseAndSubmit={() => {
              setReviewOpened(false);
              submit();
            }}
          />
        </Suspense>
      )}
      <HoneypotField />
    </form>
  );
}
