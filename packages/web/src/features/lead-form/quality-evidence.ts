import { AUTOMATION_FIELD, FORM_TOKEN_FIELD, HONEYPOT_FIELD, LEAD_FORM_ID } from '@uf/shared/quality-fields';

// What the lead-quality checks read beside the form values (issue 33, ADR 065): the page's form token,
// the honeypot field and whether the browser says it is driven by automation.

const tokenInput = (doc: Document) =>
  doc.querySelector<HTMLInputElement>(`input[name="${FORM_TOKEN_FIELD}"]`);

/**
 * Every page the server serves carries a form token. A page the app reached by navigating inside itself
 * has none: fetch one, so the lead that follows has it too (the time on the page counts from here).
 */
export function ensureFormToken(doc: Document = document): void {
  if (tokenInput(doc)) return;
  fetch('/api/form-token', { credentials: 'same-origin' })
    .then((res) => (res.ok ? res.json() : null))
    .then((body: { formToken?: unknown } | null) => {
      if (typeof body?.formToken !== 'string' || tokenInput(doc)) return;
      const input = doc.createElement('input');
      input.type = 'hidden';
      input.name = FORM_TOKEN_FIELD;
      input.value = body.formToken;
      input.setAttribute('form', LEAD_FORM_ID);
      doc.body.appendChild(input);
    })
    .catch(() => {
      // No token: the lead still goes, and its verdict says the token was missing.
    });
}

/** The quality fields as the submission sends them (a browser's own post sends the first two itself). */
export function qualityEvidence(form: HTMLFormElement | null, doc: Document = document) {
  const honeypot = form?.querySelector<HTMLInputElement>(`input[name="${HONEYPOT_FIELD}"]`)?.value ?? '';
  return {
    [FORM_TOKEN_FIELD]: tokenInput(doc)?.value ?? '',
    ...(honeypot ? { [HONEYPOT_FIELD]: honeypot } : {}),
    [AUTOMATION_FIELD]: doc.defaultView?.navigator.webdriver === true,
  };
}
