// A lead's verdict from its reason codes and the actions in force, as an expression of a batch statement
// (issue 33, ADR 065): the most severe action among the codes wins (a code without an action holds); the
// honeypot alone holds, but beside any other bot signal it rejects.
//
// The database function quality_verdict() says the same, and stays for a replica that still runs the
// code before this one. The batch statements no longer call it: a SQL function with sub-selects is never
// inlined, so each call started an executor of its own, planned again in every statement (~25 µs of
// PostgreSQL per lead, ADR 051 addendum); this scalar sub-select is planned once with its statement.

/** `codes`: a text[] expression; `actions`: a parameter holding the actions as JSON (`{ CODE: action }`). */
export const verdictSql = (codes: string, actions: string) => `(
  select case
    when count(*) = 0 then 'accept'
    when bool_or(c = 'BOT_HONEYPOT') and bool_or(c like 'BOT\\_%' and c <> 'BOT_HONEYPOT') then 'reject'
    else (array['accept', 'hold', 'reject'])[max(case coalesce(${actions}::jsonb ->> c, 'hold')
      when 'reject' then 3 when 'hold' then 2 else 1 end)]
  end
  from unnest(${codes}) c)`;
