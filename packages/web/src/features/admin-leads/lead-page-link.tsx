import { Anchor, type AnchorProps } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';

// A link to a lead's own page (issue 26): a real address (middle-click, "Copy link", paste into a
// ticket), followed inside the app without reloading it.

export type LeadKind = 'website' | 'api';

export const LEAD_PAGE_ROUTE = { website: '/admin/leads/$id', api: '/admin/api-leads/$id' } as const;

export function LeadPageLink({
  kind,
  id,
  children,
  ...props
}: AnchorProps & { kind: LeadKind; id: string; children: ReactNode; 'aria-label'?: string; title?: string }) {
  return (
    <Anchor
      {...props}
      renderRoot={(rootProps) => <Link {...rootProps} to={LEAD_PAGE_ROUTE[kind]} params={{ id }} />}
    >
      {children}
    </Anchor>
  );
}
