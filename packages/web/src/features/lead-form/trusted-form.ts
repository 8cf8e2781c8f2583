import {
  type ConsentEvidenceInput,
  PAGE_URL_MAX,
  TRUSTEDFORM_CERT_PATTERN,
  TRUSTEDFORM_FIELD,
} from '@uf/shared/consent-evidence.schema';

// Consent evidence sent with the lead (ADR 030): the page URL always; the TrustedForm certificate only
// when TRUSTEDFORM_ENABLED, the one case in which TrustedForm's script is loaded at all.

let requested = false;

/** Loads TrustedForm's certify script once; it adds a hidden `xxTrustedFormCertUrl` input to the form. */
export function loadTrustedForm(enabled: boolean, doc: Document = document): void {
  if (!enabled || requested) return;
  requested = true;
  const params = new URLSearchParams({
    field: TRUSTEDFORM_FIELD,
    provide_referrer: 'false',
    invert_field_sensitivity: 'false',
    // TrustedForm asks for a per-load value so every visit gets its own certificate.
    l: `${Date.now()}${Math.random()}`,
  });
  const script = doc.createElement('script');
  script.async = true;
  script.src = `https://api.trustedform.com/trustedform.js?${params}`;
  doc.head.appendChild(script);
}

/** What to send beside the form values. Values the server would refuse are left out, never sent. */
export function consentEvidence(doc: Document = document): ConsentEvidenceInput {
  const location = doc.defaultView?.location;
  const href = location?.href ?? '';
  const pageUrl = href.length <= PAGE_URL_MAX ? href : `${location?.origin ?? ''}${location?.pathname ?? ''}`;
  const cert = doc.querySelector<HTMLInputElement>(`input[name="${TRUSTEDFORM_FIELD}"]`)?.value ?? '';
  return {
    ...(pageUrl ? { pageUrl } : {}),
    ...(TRUSTEDFORM_CERT_PATTERN.test(cert) ? { trustedFormUrl: cert } : {}),
  };
}
