// Where the lead buyers' screens live (issue 34): /admin/buyers, /admin/buyers/new and /admin/buyers/{id},
// through the lead pages' route (/admin/$table/{-$id}, router.tsx: no route of their own on the landing
// page's budget, ADR 053). Apart from the screens so that a link to them does not load them.

// `id: undefined` said out loud: a link to the same route keeps every path parameter it does not name
// (TanStack Router merges the current params), so from /admin/buyers/{id} a link without it led back to
// the buyer itself (issue 49).
export const BUYERS_LINK = {
  to: '/admin/$table/{-$id}',
  params: { table: 'buyers', id: undefined },
} as const;

/** A buyer's editor ('new' for a new buyer). */
export const buyerLink = (id: string) =>
  ({ to: '/admin/$table/{-$id}', params: { table: 'buyers', id } }) as const;
