import type { Beneficiary } from '@uf/shared/constants';
import { startTransition, useState } from 'react';

/**
 * Sends the visitor's beneficiary choice and shows it busy until the page has handled it. The busy state
 * is the dialog's (or the in-page form's) own: held by the landing page, the tap on Submit re-rendered the
 * whole page, form included, inside the tap — 50 ms and more on a slow phone (issue 36).
 */
export function useBeneficiaryChoice(onChoose: (beneficiary: Beneficiary) => Promise<void>) {
  const [pending, setPending] = useState(false);
  const choose = (beneficiary: Beneficiary) => {
    setPending(true);
    // Usually the step is gone by then; otherwise (the update failed) the buttons come back.
    void onChoose(beneficiary).finally(() => startTransition(() => setPending(false)));
  };
  return { pending, choose };
}
