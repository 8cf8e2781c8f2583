import { Anchor, Badge, Stack, Text } from '@mantine/core';
import type { AdminApiLead, AdminWebsiteLead, ApiLeadField, WebsiteLeadField } from '@uf/shared/admin-leads';
import { LEAD_CLICK_ID_FIELDS } from '@uf/shared/attribution';
import { formatPhoneForReading } from '@uf/shared/data-request.schema';
import type { ReactNode } from 'react';
import { businessClock } from '../../business-clock';
import { ReasonList, VerdictBadge } from '../admin-quality/verdict-badge';
import { CLICK_ID_LABELS } from './attribution-labels';
import type { ChoosableColumn } from './column-choice';
import { ConsentReceiptLink, OptOutFlag } from './consent-receipt';

// The tables' columns as data: one entry per column, in display order. Adding a column (say, an
// opted-out flag) is one entry here; the table, its sorting, its header, the column chooser and the
// lead drawer follow. A new column is hidden until the admin picks it in the chooser, unless its
// entry says `shownByDefault` (each table's default stays at ten columns or fewer: ADR 054).

export type LeadColumn<T> = ChoosableColumn & {
  /** Server-side sort field; columns without one are not sortable. */
  sortField?: string;
  render: (row: T) => ReactNode;
  /** How the lead drawer shows the value, when not as in the table. */
  renderDetail?: (row: T) => ReactNode;
  /**
   * Free text of any length (a name, an e-mail, a campaign): cut with an ellipsis at a cap the table lowers
   * until it fits its box (issue 37: at 1440 px a long e-mail and campaign pushed Created At under the
   * pinned actions). Whole in the drawer.
   */
  fluid?: boolean;
};

/** Marks a column as part of its table's default set. */
const byDefault = <C extends ChoosableColumn>(column: C): C => ({ ...column, shownByDefault: true });

/** Marks a column as free text that shares the width left (LeadColumn.fluid). */
const fluid = <C extends { fluid?: boolean }>(column: C): C => ({ ...column, fluid: true });

export const FULL_WIDTH_BADGE = {
  root: { overflow: 'visible', maxWidth: 'none' },
  label: { overflow: 'visible' },
};

/** Spec §4: 'Compliant' when tcpaCompliant is the string 'true', otherwise 'Non-Compliant'. */
export function TcpaBadge({ value }: { value: string }) {
  const compliant = value === 'true';
  return (
    // Never shortened to "C…": a badge's label may otherwise shrink with a squeezed table column.
    <Badge color={compliant ? 'green' : 'red'} variant="light" styles={FULL_WIDTH_BADGE}>
      {compliant ? 'Compliant' : 'Non-Compliant'}
    </Badge>
  );
}

/**
 * 'Nov 26, 2026, 11:50 AM' as the date over the time (issue 37): the default columns then fit a 1440 px
 * window beside the pinned actions, and neither part is ever cut.
 */
function DateTimeCell({ text }: { text: string }) {
  const at = text.lastIndexOf(', ');
  if (at < 0) return <>{text}</>;
  return (
    <>
      {/* The text stays whole ('…, 11:50 AM'): copied or read out, it is the one date-time. */}
      <span style={{ whiteSpace: 'nowrap' }}>{text.slice(0, at + 2)}</span>
      <br />
      <span style={{ whiteSpace: 'nowrap' }}>{text.slice(at + 2)}</span>
    </>
  );
}

const dash = (value: string | null | undefined) =>
  value === null || value === undefined || value === '' ? '—' : value;

// Every time in TIME_ZONE, named in the column's label (issue 26, ADR 060).
const clock = businessClock();

/** Only http(s) certificate links become links; anything else is shown as text. */
function CertificateLink({ url }: { url: string | null }) {
  if (!url) return <>—</>;
  if (!/^https?:\/\//i.test(url)) return <>{url}</>;
  return (
    <Anchor href={url} target="_blank" rel="noopener noreferrer" size="sm">
      View certificate
    </Anchor>
  );
}

const mono = (value: string) => (
  <Text component="span" ff="monospace" size="xs">
    {value}
  </Text>
);

type WebsiteColumn = LeadColumn<AdminWebsiteLead> & { sortField?: WebsiteLeadField };
type ApiColumn = LeadColumn<AdminApiLead> & { sortField?: ApiLeadField };

/** A column that shows one field as text and sorts by it. */
function field<T>() {
  return <K extends keyof T & string>(
    key: K,
    label: string,
    render: (row: T) => ReactNode = (row) => dash(row[key] as string | null),
  ): LeadColumn<T> & { sortField: K } => ({ key, label, sortField: key, render });
}

/** Columns both lead kinds have, shown the same way in both tables. */
function sharedColumns<T extends AdminWebsiteLead | AdminApiLead>() {
  const f = field<T>();
  return {
    id: { key: 'id', label: 'ID', render: (r: T) => mono(r.id) },
    firstName: fluid(f('firstName', 'First Name')),
    lastName: fluid(f('lastName', 'Last Name')),
    streetAddress: fluid(f('streetAddress', 'Street Address')),
    state: f('state', 'State'),
    // Stored as entered; shown the way people read a US number (issue 16).
    phone: f('phone', 'Phone', (r) => formatPhoneForReading(r.phone)),
    birthMonth: f('birthMonth', 'Birth Month'),
    birthDay: f('birthDay', 'Birth Day'),
    birthYear: f('birthYear', 'Birth Year'),
    beneficiary: fluid(f('beneficiary', 'Beneficiary')),
    optedOut: f('optedOut', 'Opted Out', (r) => (
      <OptOutFlag value={r.optedOut} title="On the suppression list: do not contact" color="red" />
    )),
    trustedFormUrl: {
      fluid: true,
      key: 'trustedFormUrl',
      label: 'TrustedForm',
      render: (r: T) => <CertificateLink url={r.trustedFormUrl} />,
    },
    // Lead quality (issue 33): the verdict badge, its reasons in words in the tooltip and, in the drawer,
    // listed under it. Not sortable (not a field of the spec's table).
    quality: {
      key: 'quality',
      label: 'Verdict',
      render: (r: T) => <VerdictBadge quality={r.quality} />,
      renderDetail: (r: T) =>
        r.quality ? (
          <Stack gap={4} align="flex-start">
            <VerdictBadge quality={r.quality} withTooltip={false} />
            <ReasonList reasons={r.quality.reasons} />
          </Stack>
        ) : (
          '—'
        ),
    },
    createdAt: {
      ...f('createdAt', clock.label('Created At'), (r) => (
        <DateTimeCell text={clock.formatShort(r.createdAt)} />
      )),
      renderDetail: (r: T) => clock.format(r.createdAt),
    },
  };
}

const w = field<AdminWebsiteLead>();
const ws = sharedColumns<AdminWebsiteLead>();

export const WEBSITE_LEAD_COLUMNS: WebsiteColumn[] = [
  ws.id,
  byDefault(ws.firstName),
  byDefault(ws.lastName),
  byDefault(fluid(w('email', 'Email'))),
  byDefault(ws.phone),
  ws.streetAddress,
  w('zipCode', 'ZIP Code'),
  byDefault(ws.state),
  ws.birthMonth,
  ws.birthDay,
  ws.birthYear,
  w('optInDate', clock.label('Opt-In Date')),
  w('optInTime', clock.label('Opt-In Time')),
  // The certification id is the consent receipt's id: it opens the receipt (issue 6). The drawer shows
  // the receipt itself, so there it is plain text.
  {
    ...w('certificationId', 'Certification ID', (r) =>
      r.certificationId ? <ConsentReceiptLink leadId={r.id} certificationId={r.certificationId} /> : '—',
    ),
    renderDetail: (r: AdminWebsiteLead) => (r.certificationId ? mono(r.certificationId) : '—'),
  },
  fluid(w('leadSource', 'Lead Source')),
  // Spec §2: a TCPA badge on every row, so the chooser cannot hide it.
  { ...w('tcpaCompliant', 'TCPA', (r) => <TcpaBadge value={r.tcpaCompliant} />), alwaysShown: true },
  // Issue 33: the verdict takes Opted Out's default place (ten at most, ADR 054); Opted Out stays a choice.
  byDefault(ws.quality),
  w('consentGiven', 'Consent', (r) => (r.consentGiven ? 'Yes' : 'No')),
  ws.optedOut,
  w('doNotSell', 'Do Not Sell', (r) => (
    <OptOutFlag value={r.doNotSell} title="Global Privacy Control: do not sell or share" color="orange" />
  )),
  ws.beneficiary,
  w('ipAddress', 'IP Address'),
  ws.trustedFormUrl,
  // Where the visit came from (issue 15): channel and campaign by default, source and medium on demand.
  byDefault(fluid(w('channel', 'Channel'))),
  fluid(w('source', 'Source')),
  fluid(w('medium', 'Medium')),
  // Issue 48: the landing experiment and arm the lead's page was served in.
  fluid(w('experiment', 'Experiment')),
  fluid(w('arm', 'Arm')),
  byDefault(fluid(w('campaign', 'Campaign'))),
  // The visit's ad click ids (issue 24): hidden until chosen, always in the drawer.
  ...LEAD_CLICK_ID_FIELDS.map((key) => w(key, CLICK_ID_LABELS[key], (r) => (r[key] ? mono(r[key]) : '—'))),
  byDefault(ws.createdAt),
];

const as = sharedColumns<AdminApiLead>();

export const API_LEAD_COLUMNS: ApiColumn[] = [
  as.id,
  byDefault(as.firstName),
  byDefault(as.lastName),
  as.streetAddress,
  byDefault(fluid(field<AdminApiLead>()('city', 'City'))),
  byDefault(as.state),
  byDefault(as.phone),
  as.birthMonth,
  as.birthDay,
  as.birthYear,
  byDefault(as.beneficiary),
  byDefault(as.optedOut),
  byDefault(as.trustedFormUrl),
  byDefault(as.quality),
  byDefault(as.createdAt),
];
