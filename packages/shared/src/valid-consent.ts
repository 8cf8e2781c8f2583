// What the sources table's "Valid Consent Rate" counts (issue 37; said on screen since issue 49, whose
// operator saw 0 % for seven JSON-API leads that had all sent consent): a lead counts when it gave consent
// AND its consent receipt holds every piece of evidence a buyer needs to defend it (tcpaCompliant, ADR 030)
// AND it has not opted out since. The wording is read by the screen, its hint and the API's description.

export const VALID_CONSENT = {
  /** One line, under the table and in the API description. */
  rule: 'Valid consent: the lead gave consent, its consent receipt is complete — the disclosure text, the IP address, the browser (user agent) and the page address — and it has not opted out since.',
  /** Why a lead that sent consent may not count. */
  pageAddress:
    'A lead posted to the JSON API without pageUrl or a Referer header has consent but no page address: its receipt is incomplete and it does not count.',
} as const;
