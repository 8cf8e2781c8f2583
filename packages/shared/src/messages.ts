// User-facing texts of the specification (§5, §8), word for word.

export const LEAD_FIELD_MESSAGES = {
  firstNameRequired: 'First name is required',
  lastNameRequired: 'Last name is required',
  streetAddressRequired: 'Street address is required',
  zipTooShort: 'ZIP code must be at least 5 digits',
  zipFormat: 'ZIP code must be in format 12345 or 12345-6789',
  emailRequired: 'Email address is required',
  emailInvalid: (exampleEmail: string) => `Please enter a valid email address (e.g., ${exampleEmail})`,
  phoneRequired: 'Phone number is required',
  phoneInvalid: 'Please enter a valid phone number (e.g., (555) 123-4567)',
  birthMonthRequired: 'Birth month is required',
  birthMonthInvalid: 'Birth month must be between 1 and 12',
  birthDayRequired: 'Birth day is required',
  birthDayInvalid: 'Birth day must be between 1 and 31',
  birthYearRequired: 'Birth year is required',
  birthYearRange: 'Sorry, we only serve individuals born between 1940 and 1994',
  consentRequired: 'You must consent to continue',
} as const;

export const PUBLIC_TOASTS = {
  duplicateEmail: {
    title: 'Already Submitted',
    message:
      'This email address has already been submitted. Each person can only submit their information once.',
  },
  ageRestriction: {
    title: 'Age Requirement',
    message: 'Sorry, we only serve individuals born between 1940 and 1994.',
  },
  submitFailed: { title: 'Error', message: 'Failed to submit your search. Please try again.' },
  beneficiaryFailed: { title: 'Error', message: 'Failed to update beneficiary information.' },
} as const;

/**
 * Lasting notices beside a field after the server refused the form (issue 37), where spec §8's toast is
 * gone after 5 seconds: what happened and what to do next.
 */
export const LEAD_FORM_NOTICES = {
  duplicateEmail:
    'This email address was already used for a search. To search for someone else, use their own email address.',
  /** The box comes back unticked (consent is never pre-ticked): said beside it, not after another post. */
  consentAgain: 'Please tick this box again to give your consent.',
} as const;

export const LOGIN_MESSAGES = {
  usernameRequired: 'Username is required',
  passwordRequired: 'Password is required',
  invalidCredentials: 'Invalid username or password',
} as const;
