import { describe, expect, it } from 'vitest';
import { partnerFieldErrors, partnerLeadSchema } from './partner.schema';

const valid = {
  firstName: 'Ann',
  lastName: 'Lee',
  streetAddress: '5 Oak Ave',
  city: 'Austin',
  state: 'tx',
  phone: '+1 (512) 555-0100',
  birthMonth: '02',
  birthDay: 29,
  birthYear: 1968,
};

function fieldsOf(body: Record<string, unknown>) {
  const r = partnerLeadSchema.safeParse(body);
  return r.success ? {} : Object.fromEntries(partnerFieldErrors(r.error).map((e) => [e.field, e.message]));
}

describe('partner lead schema', () => {
  it('accepts numbers or digit strings for the birth date and upper-cases the state', () => {
    expect(partnerLeadSchema.parse(valid)).toMatchObject({
      state: 'TX',
      birthMonth: 2,
      birthDay: 29,
      birthYear: 1968,
    });
  });

  it('names every invalid and every unknown field', () => {
    const errors = fieldsOf({
      ...valid,
      firstName: ' ',
      state: 'DC',
      phone: '555-0100',
      birthMonth: 13,
      birthYear: '1995',
      beneficiary: 'Neighbour',
      trustedFormUrl: 'https://example.com/cert',
      zip: '73301',
      email: 'a@b.co',
    });
    expect(Object.keys(errors).sort()).toEqual(
      [
        'firstName',
        'state',
        'phone',
        'birthMonth',
        'birthYear',
        'beneficiary',
        'trustedFormUrl',
        'zip',
        'email',
      ].sort(),
    );
    expect(errors.zip).toBe('zip is not a field of an API lead');
    expect(errors.state).toBe('state must be a two-letter US state code, e.g. CA');
  });

  it('lists missing fields as required', () => {
    expect(fieldsOf({})).toMatchObject({
      firstName: 'firstName is required',
      city: 'city is required',
      birthDay: 'birthDay must be a day number from 1 to 31',
    });
  });

  it('rejects a day that does not exist in that month', () => {
    expect(fieldsOf({ ...valid, birthYear: 1969 })).toEqual({
      birthDay: 'birthDay is not a day of that month',
    });
    expect(fieldsOf({ ...valid, birthMonth: 4, birthDay: '31' })).toEqual({
      birthDay: 'birthDay is not a day of that month',
    });
  });
});
