// The lead form's quality fields (issue 33): what the landing page ships, apart from the rules.

/** The landing page's lead form: the form token's field names it (`form=`), wherever it stands in the page. */
export const LEAD_FORM_ID = 'lead-form';
/** The hidden field every served landing page carries (signed issue time and nonce). */
export const FORM_TOKEN_FIELD = 'formToken';
/**
 * The honeypot: a field people never see (off screen, out of the tab order, hidden from assistive
 * technology). Its name is nothing a password manager or browser autofill recognises.
 */
export const HONEYPOT_FIELD = 'referenceCode';
/** What the page's script reports when `navigator.webdriver` is true. */
export const AUTOMATION_FIELD = 'automation';
