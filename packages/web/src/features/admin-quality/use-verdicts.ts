import { ADMIN_TOASTS } from '@uf/shared/admin-messages';
import type { AdminVerdict } from '@uf/shared/quality';
import { notifyError, notifySuccess } from '../../notify';
import { notifyProgress } from '../../notify-progress';
import { appErrorOf, trpc } from '../../trpc';
import type { LeadKind } from '../admin-leads/lead-page-link';
import { REVIEW_WORDS } from './quality-words';
import type { VerdictRequest } from './verdict-dialog';

// The admin's verdicts (issue 33): Release (accept: the lead is offered and sent at once) and Reject, on one
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
          delivered ? REVIEW_WORDS.released(`${lead.firstName} ${lead.lastName}`) : REVIEW_WORDS.notSentAgain,
        );
      } else {
        notifySuccess(`${words.One} rejected`, REVIEW_WORDS.rejected(`${lead.firstName} ${lead.lastName}`));
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
          REVIEW_WORDS.releasedMany(plural(updated, words.one, words.many), delivered),
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
              message: REVIEW_WORDS.release('It', 'is'),
              confirmLabel: 'Release',
              onConfirm: (note) => void decideOne(lead, verdict, note),
            }
          : {
              verdict,
              title: `Reject ${words.one} ${name}?`,
              message: REVIEW_WORDS.reject('It', 'it'),
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
              message: REVIEW_WORDS.release(selected, ids.length === 1 ? 'is' : 'are'),
              confirmLabel: `Release ${ids.length.toLocaleString()}`,
              onConfirm: (note) => void decideMany(ids, verdict, note, onDone),
            }
          : {
              verdict,
              title: `Reject ${n}?`,
              message: REVIEW_WORDS.reject(selected, ids.length === 1 ? 'it' : 'them'),
              confirmLabel: `Reject ${ids.length.toLocaleString()}`,
              onConfirm: (note) => void decideMany(ids, verdict, note, onDone),
            },
      );
    },
  };
}
