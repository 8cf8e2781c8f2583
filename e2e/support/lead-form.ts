import type { Page } from 'playwright-core';

export type LeadValues = {
  firstName: string;
  lastName: string;
  streetAddress: string;
  zipCode: string;
  email: string;
  phone: string;
  birthMonth: string;
  birthDay: string;
  birthYear: string;
};

export function validLead(email: string, overrides: Partial<LeadValues> = {}): LeadValues {
  return {
    firstName: 'Jane',
    lastName: 'Doe',
    streetAddress: '1 Main St',
    zipCode: '90210',
    email,
    phone: '(555) 123-4567',
    birthMonth: '5',
    birthDay: '17',
    birthYear: '1970',
    ...overrides,
  };
}

/** Fills the landing form the way a visitor does, by label. */
export async function fillLeadForm(page: Page, v: LeadValues, consent = true) {
  await page.getByLabel('First Name', { exact: true }).fill(v.firstName);
  await page.getByLabel('Last Name', { exact: true }).fill(v.lastName);
  await page.getByLabel('Street Address', { exact: true }).fill(v.streetAddress);
  await page.getByLabel('ZIP Code', { exact: true }).fill(v.zipCode);
  await page.getByLabel('Email Address', { exact: true }).fill(v.email);
  await page.getByLabel('Phone Number', { exact: true }).fill(v.phone);
  await page.getByLabel('Birth Month', { exact: true }).selectOption(v.birthMonth);
  await page.getByLabel('Birth Day', { exact: true }).selectOption(v.birthDay);
  await page.getByLabel('Birth Year', { exact: true }).selectOption(v.birthYear);
  if (consent) await page.getByRole('checkbox').check();
}
