let counter = 0;

/** A valid submission body (the wire format: all strings, consent 'true'). */
export function leadBody(overrides: Record<string, string> = {}) {
  counter += 1;
  return {
    firstName: 'Jane',
    lastName: 'Doe',
    streetAddress: '1 Main St',
    zipCode: '90210',
    email: `jane.${counter}.${Math.random().toString(36).slice(2, 8)}@example.com`,
    phone: '(555) 123-4567',
    birthMonth: '5',
    birthDay: '17',
    birthYear: '1970',
    consentGiven: 'true' as 'true' | 'false',
    ...overrides,
  };
}
