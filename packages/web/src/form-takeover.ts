import { type RefObject, useEffect, useState } from 'react';

// How the app takes over a public page's form (ADR 057). Before the app runs, a form is a plain
// `method="post"` form: the entry script (main.tsx) holds a submit back while the app is on its way,
// marks the form `data-pending-submit` (with the pressed button's name in `data-pending-submitter`) and
// shows the button as busy; if the app does not arrive, the browser posts the form to the server itself.
// When the app's component mounts it marks the form as its own (`data-app-form`), clears the busy
// marks and, if a submit was held back, sends it again through the app once its state holds what the
// fields show.

export const FORM_DATA = {
  /** The app handles this form's submits (the entry script leaves them alone). */
  appForm: 'appForm',
  /** A submit made before the app ran, held back for the app. */
  pendingSubmit: 'pendingSubmit',
  /** `name` of the button that made it ('' for none). */
  pendingSubmitter: 'pendingSubmitter',
} as const;

/**
 * Takes the form over once mounted. `adopt` makes what the fields hold (typed, autofilled, dictated
 * before the app ran) the component's state; a held-back submit is then sent again, after that state
 * has rendered.
 */
export function useFormTakeover(
  formRef: RefObject<HTMLFormElement | null>,
  adopt?: (form: HTMLFormElement) => void,
) {
  const [held, setHeld] = useState<{ submitter: string } | null>(null);
  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    adopt?.(form);
    form.dataset[FORM_DATA.appForm] = 'true';
    for (const busy of form.querySelectorAll('[aria-busy="true"]')) busy.removeAttribute('aria-busy');
    if (form.dataset[FORM_DATA.pendingSubmit] === 'true') {
      const submitter = form.dataset[FORM_DATA.pendingSubmitter] ?? '';
      delete form.dataset[FORM_DATA.pendingSubmit];
      delete form.dataset[FORM_DATA.pendingSubmitter];
      setHeld({ submitter });
    }
  }, []);
  useEffect(() => {
    const form = formRef.current;
    if (!held || !form) return;
    setHeld(null);
    const button = held.submitter
      ? form.querySelector<HTMLButtonElement>(`button[type="submit"][name="${CSS.escape(held.submitter)}"]`)
      : null;
    form.requestSubmit(button ?? undefined);
  }, [held]);
}
