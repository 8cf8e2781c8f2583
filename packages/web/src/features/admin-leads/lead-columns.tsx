import { Anchor, Badge, Text } from '@mantine/core';
import type {
  AdminApiLead,
  AdminWebsiteLead,
  ApiLeadField,
  WebsiteLeadField,
} from '@uf/shared/admin-leads.schema';
import type { ReactNode } from 'react';
import { ConsentReceiptLink, OptOutFlag } from './consent-receipt';

// The tables' columns as data: one entry per column, in display order. Adding a column (say, an
// opted-out flag) is one entry here; the table, its sorting and its header follow.

export type LeadColumn<T> = {
  key: string;
  label: string;
  /** Server-side sort field; columns without one are not sortable. */
  sortField?: string;
  render: (row: T) => ReactNode;
};

/** Spec §4: 'Compliant' when tcpaCompliant is the string 'true', otherwise 'Non-Compliant'. */
export function TcpaBadge({ value }: { value: string }) {
  const compliant = value === 'true';
  return (
    <Badge color={compliant ? 'green' : 'red'} variant="light">
      {compliant ? 'Compliant' : 'Non-Compliant'}
    </Badge>
  );
}

const dash = (value: string | null | undefined) =>
  value === null || value === undefined || value === '' ? '—' : value;

const dateTime = (iso: string) => new Date(iso).toLocaleString();

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

export const WEBSITE_LEAD_COLUMNS: WebsiteColumn[] = [
  { key: 'id', label: 'ID', render: (r) => mono(r.id) },
  { key: 'firstName', label: 'First Name', sortField: 'firstName', render: (r) => r.firstName },
  { key: 'lastName', label: 'Last Name', sortField: 'lastName', render: (r) => r.lastName },
  { key: 'email', label: 'Email', sortField: 'email', render: (r) => r.email },
  { key: 'phone', label: 'Phone', sortField: 'phone', render: (r) => r.phone },
  {
    key: 'streetAddress',
    label: 'Street Address',
    sortField: 'streetAddress',
    render: (r) => r.streetAddress,
  },
  { key: 'zipCode', label: 'ZIP Code', sortField: 'zipCode', render: (r) => r.zipCode },
  { key: 'state', label: 'State', sortField: 'state', render: (r) => dash(r.state) },
  { key: 'birthMonth', label: 'Birth Month', sortField: 'birthMonth', render: (r) => r.birthMonth },
  { key: 'birthDay', label: 'Birth Day', sortField: 'birthDay', render: (r) => r.birthDay },
  { key: 'birthYear', label: 'Birth Year', sortField: 'birthYear', render: (r) => r.birthYear },
  { key: 'optInDate', label: 'Opt-In Date', sortField: 'optInDate', render: (r) => r.optInDate },
  { key: 'optInTime', label: 'Opt-In Time', sortField: 'optInTime', render: (r) => r.optInTime },
  {
    key: 'certificationId',
    label: 'Certification ID',
    sortField: 'certificationId',
    // The certification id is the consent receipt's id: it opens the receipt (issue 6).
    render: (r) =>
      r.certificationId ? <ConsentReceiptLink leadId={r.id} certificationId={r.certificationId} /> : '—',
  },
  { key: 'leadSource', label: 'Lead Source', sortField: 'leadSource', render: (r) => r.leadSource },
  {
    key: 'tcpaCompliant',
    label: 'TCPA',
    sortField: 'tcpaCompliant',
    render: (r) => <TcpaBadge value={r.tcpaCompliant} />,
  },
  {
    key: 'consentGiven',
    label: 'Consent',
    sortField: 'consentGiven',
    render: (r) => (r.consentGiven ? 'Yes' : 'No'),
  },
  {
    key: 'optedOut',
    label: 'Opted Out',
    sortField: 'optedOut',
    render: (r) => (
      <OptOutFlag value={r.optedOut} title="On the suppression list: do not contact" color="red" />
    ),
  },
  {
    key: 'doNotSell',
    label: 'Do Not Sell',
    sortField: 'doNotSell',
    render: (r) => (
      <OptOutFlag value={r.doNotSell} title="Global Privacy Control: do not sell or share" color="orange" />
    ),
  },
  { key: 'beneficiary', label: 'Beneficiary', sortField: 'beneficiary', render: (r) => dash(r.beneficiary) },
  { key: 'ipAddress', label: 'IP Address', sortField: 'ipAddress', render: (r) => dash(r.ipAddress) },
  { key: 'trustedFormUrl', label: 'TrustedForm', render: (r) => <CertificateLink url={r.trustedFormUrl} /> },
  { key: 'createdAt', label: 'Created At', sortField: 'createdAt', render: (r) => dateTime(r.createdAt) },
];

export const API_LEAD_COLUMNS: ApiColumn[] = [
  { key: 'id', label: 'ID', render: (r) => mono(r.id) },
  { key: 'firstName', label: 'First Name', sortField: 'firstName', render: (r) => r.firstName },
  { key: 'lastName', label: 'Last Name', sortField: 'lastName', render: (r) => r.lastName },
  {
    key: 'streetAddress',
    label: 'Street Address',
    sortField: 'streetAddress',
    render: (r) => r.streetAddress,
  },
  { key: 'city', label: 'City', sortField: 'city', render: (r) => r.city },
  { key: 'state', label: 'State', sortField: 'state', render: (r) => r.state },
  { key: 'phone', label: 'Phone', sortField: 'phone', render: (r) => r.phone },
  { key: 'birthMonth', label: 'Birth Month', sortField: 'birthMonth', render: (r) => r.birthMonth },
  { key: 'birthDay', label: 'Birth Day', sortField: 'birthDay', render: (r) => r.birthDay },
  { key: 'birthYear', label: 'Birth Year', sortField: 'birthYear', render: (r) => r.birthYear },
  { key: 'beneficiary', label: 'Beneficiary', sortField: 'beneficiary', render: (r) => dash(r.beneficiary) },
  {
    key: 'optedOut',
    label: 'Opted Out',
    sortField: 'optedOut',
    render: (r) => (
      <OptOutFlag value={r.optedOut} title="On the suppression list: do not contact" color="red" />
    ),
  },
  { key: 'trustedFormUrl', label: 'TrustedForm', render: (r) => <CertificateLink url={r.trustedFormUrl} /> },
  { key: 'createdAt', label: 'Created At', sortField: 'createdAt', render: (r) => dateTime(r.createdAt) },
];
