import { defineEntity, p } from '@mikro-orm/core';
import { leadQualityProperties } from './lead-quality.properties';

export const ApiLead = defineEntity({
  name: 'ApiLead',
  tableName: 'api_lead',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => crypto.randomUUID()),
    firstName: p.text(),
    lastName: p.text(),
    streetAddress: p.text(),
    city: p.text(),
    state: p.string().length(2),
    phone: p.text(),
    birthMonth: p.smallint(),
    birthDay: p.smallint(),
    birthYear: p.smallint(),
    beneficiary: p.text().nullable(),
    trustedFormUrl: p.text().nullable(),
    /** The partner whose API key sent the lead. */
    partnerId: p.uuid().nullable(),
    /** Set when the lead's phone is on the suppression list. */
    optedOutAt: p.datetime().nullable(),
    ...leadQualityProperties(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
