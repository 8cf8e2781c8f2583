import { ADMIN_TOASTS } from '@uf/shared/admin-messages';
import type { AdminVerdict } from '@uf/shared/quality';
import { notifyError, notifySuccess } from '../../notify';
import { notifyProgress } from '../../notify-progress';
import { appErrorOf, trpc } from '../../trpc';
import type { LeadKind } from '../admin-leads/lead-page-link';
import type { VerdictRequest } from './verdict-dialog';

// The admin's verdicts (issue 33): Release (accept: the lead is delivered at once) and Reject, on one
// lead (its page, a row of the review queue) or on many (the queue's selection). Each asks first
// (VerdictDialog), then says what happened in a toast and refreshes what shows the leads.

const KIND_WORDS = {
  website: { one: 'lead', many: 'leads', One: 'Lead', Many: 'Leads' },
  api: { one: 'API lead', many: 'API leads', One: 'API lead', Many: 'API leads' },
} as const;

const plural = (n: number, one: string, many: string) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

type Person = { id: string; firstName: string; lastName: string };

export function useVerdictActions(kind: LeadKind, ask: (request: VerdictRequest) => void) {
  const utils = trpc.useUtils();
  const websiteOne = trpc.admin.leads.setVerdict.useMutation();
  const websiteMany = trpc.admin.leads.bulkSetVerdict.useMutation();
  const apiOne = trpc.admin.apiLeads.setVerdict.useMutation();
  const apiMany = trpc.admin.apiLeads.bulkSetVerdict.useMutation();
  const one = kind === 'website' ? websiteOne : apiOne;
  const many = kind === 'website' ? websiteMany : apiMany;
  const words = KIND_WORDS[kind];

  const refresh = async () => {
    await Promise.all([
      kind === 'website' ? utils.admin.leads.invalidate() : utils.admin.apiLeads.invalidate(),
      // A released lead's page lists its new deliveries.
      utils.admin.webhooks.leadDeliveries.invalidate(),
    ]);
  };

  const decideOne = async (lead: Person, verdict: AdminVerdict, note: string | undefined) => {
    try {
      const { delivered } = await one.mutateAsync({ id: lead.id, verdict, ...(note ? { note } : {}) });
      if (verdict === 'accept') {
        notifySuccess(
          `${words.One} released`,
          delivered
            ? `${lead.firstName} ${lead.lastName} is on its way to the webhook endpoints.`
            : 'Not sent again: it had been sent before, or the person has opted out.',
        );
      } else {
        notifySuccess(`${words.One} rejected`, `${lead.firstName} ${lead.lastName} will never be sent.`);
      }
      await refresh();
    } catch (err) {
      notifyError(
        ADMIN_TOASTS.errorTitle,
        appErrorOf(err)?.message ??
          `Failed to ${verdict === 'accept' ? 'release' : 'reject'} the ${words.one}`,
      );
    }
  };

  const decideMany = async (
    ids: string[],
    verdict: AdminVerdict,
    note: string | undefined,
    onDone?: () => void,
  ) => {
    const doing = verdict === 'accept' ? 'Releasing' : 'Rejecting';
    const progress = notifyProgress(`${doing} ${plural(ids.length, words.one, words.many)}...`);
    try {
      const { updated, delivered } = await many.mutateAsync({ ids, verdict, ...(note ? { note } : {}) });
      onDone?.();
      if (verdict === 'accept') {
        progress.success(
          `${words.Many} released`,
          `${plural(updated, words.one, words.many)} released, ${delivered.toLocaleString()} sent to the webhook endpoints`,
        );
      } else {
        progress.success(`${words.Many} rejected`, `${plural(updated, words.one, words.many)} rejected`);
      }
      await refresh();
    } catch (err) {
      progress.error(
        ADMIN_TOASTS.errorTitle,
        appErrorOf(err)?.message ??
          `Failed to ${verdict === 'accept' ? 'release' : 'reject'} the selected ${words.many}`,
      );
    }
  };

  return {
    isPending: one.isPending || many.isPending,
    /** Release or reject one lead, after the admin confirms (with an optional note). */
    askOne(lead: Person, verdict: AdminVerdict) {
      const name = `${lead.firstName} ${lead.lastName}`;
      ask(
        verdict === 'accept'
          ? {
              verdict,
              title: `Release ${words.one} ${name}?`,
              message:
                'It is delivered to the webhook endpoints at once. A delivered lead cannot be called back.',
              confirmLabel: 'Release',
              onConfirm: (note) => void decideOne(lead, verdict, note),
            }
          : {
              verdict,
              title: `Reject ${words.one} ${name}?`,
              message: 'It will never be sent to anyone. You can still release it later.',
              confirmLabel: 'Reject',
              onConfirm: (note) => void decideOne(lead, verdict, note),
            },
      );
    },
    /** Release or reject the selected leads, after the admin confirms. */
    askMany(ids: string[], verdict: AdminVerdict, onDone?: () => void) {
      const n = plural(ids.length, words.one, words.many);
      const selected = `The selected ${ids.length === 1 ? words.one : words.many}`;
      ask(
        verdict === 'accept'
          ? {
              verdict,
              title: `Release ${n}?`,
              message: `${selected} ${ids.length === 1 ? 'is' : 'are'} delivered to the webhook endpoints at once. A delivered lead cannot be called back.`,
              confirmLabel: `Release ${ids.length.toLocaleString()}`,
              onConfirm: (note) => void decideMany(ids, verdict, note, onDone),
            }
          : {
              verdict,
              title: `Reject ${n}?`,
              message: `${selected} will never be sent to anyone. You can still release ${ids.length === 1 ? 'it' : 'them'} later.`,
              confirmLabel: `Reject ${ids.length.toLocaleString()}`,
              onConfirm: (note) => void decideMany(ids, verdict, note, onDone),
            },
      );
    },
  };
}
