// Where the lead buyers' screens live (issue 34): /admin/buyers, /admin/buyers/new and /admin/buyers/{id},
// through the lead pages' route (/admin/$table/{-$id}, router.tsx: no route of their own on the landing
// page's budget, ADR 053). Apart from the screens so that a link to them does not load them.

export const BUYERS_LINK = { to: '/admin/$table/{-$id}', params: { table: 'buyers' } } as const;

/** A buyer's editor ('new' for a new buyer). */
export const buyerLink = (id: string) =>
  ({ to: '/admin/$table/{-$id}', params: { table: 'buyers', id } }) as const;
