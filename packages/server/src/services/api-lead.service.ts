import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiLead } from '../db/entities/api-lead.entity';

/** An API lead's fields (spec §3) as they are stored: the caller has validated them. */
export type NewApiLead = {
  firstName: string;
  lastName: string;
  streetAddress: string;
  city: string;
  state: string;
  phone: string;
  birthMonth: number;
  birthDay: number;
  birthYear: number;
  beneficiary?: string | null;
  trustedFormUrl?: string | null;
  /** When the lead arrived; defaults to now (set explicitly by imports and tests). */
  createdAt?: Date;
};

/** Stores one API lead and returns its id. */
export async function createApiLead(em: EntityManager, input: NewApiLead): Promise<{ id: string }> {
  const lead = em.create(ApiLead, {
    firstName: input.firstName,
    lastName: input.lastName,
    streetAddress: input.streetAddress,
    city: input.city,
    state: input.state,
    phone: input.phone,
    birthMonth: input.birthMonth,
    birthDay: input.birthDay,
    birthYear: input.birthYear,
    beneficiary: input.beneficiary ?? null,
    trustedFormUrl: input.trustedFormUrl ?? null,
    createdAt: input.createdAt ?? new Date(),
  });
  await em.flush();
  return { id: lead.id };
}
