// One meaning per money word (issue 47, ADR 073): what `sold`, `returned`, `revenue`, `credited` and `net`
// mean in every answer, screen, file and e-mail that shows them — the analytics sources table (API, screen
// and CSV), GET /api/admin/revenue, the Buyers list, the Revenue card and the e-mail reports. Written once
// here and read by the output schemas (so the OpenAPI document says the same) and the screens' hints.

export const MONEY_WORDS = {
  sold: 'Leads a buyer bought, returned ones included',
  returned: 'Of the sold leads, the ones their buyer returned',
  revenue: 'What buyers paid for the sold leads, USD, gross: returns not taken off',
  credited: 'USD credited back to buyers for the returned leads (their prices)',
  net: 'Revenue after returns, USD: revenue − credited',
} as const;
