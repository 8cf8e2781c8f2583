import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122000000_initial } from './Migration20261122000000_initial';
import { Migration20261122010000_admin_auth } from './Migration20261122010000_admin_auth';
import { Migration20261122015000_audit_log } from './Migration20261122015000_audit_log';
import { Migration20261122030000_analytics_rollups } from './Migration20261122030000_analytics_rollups';
import { Migration20261122031000_analytics_monthly_rollups } from './Migration20261122031000_analytics_monthly_rollups';
import { Migration20261122040000_consent_partner } from './Migration20261122040000_consent_partner';
import { Migration20261123100000_one_statement_writes } from './Migration20261123100000_one_statement_writes';
import { Migration20261123110000_lead_search } from './Migration20261123110000_lead_search';
import { Migration20261124100000_attribution } from './Migration20261124100000_attribution';
import { Migration20261124200000_lead_rollup_deltas } from './Migration20261124200000_lead_rollup_deltas';
import { Migration20261124230000_rate_limit_hits } from './Migration20261124230000_rate_limit_hits';
import { Migration20261125100000_lead_retry_key } from './Migration20261125100000_lead_retry_key';
import { Migration20261126100000_admin_two_factor } from './Migration20261126100000_admin_two_factor';
import { Migration20261127100000_visit_funnel_devices } from './Migration20261127100000_visit_funnel_devices';
import { Migration20261127150000_analytics_rollup_deltas } from './Migration20261127150000_analytics_rollup_deltas';
import { Migration20261127300000_webhooks } from './Migration20261127300000_webhooks';
import { Migration20261127500000_email_reports } from './Migration20261127500000_email_reports';
import { Migration20261128100000_webhook_outbox } from './Migration20261128100000_webhook_outbox';
import { Migration20261129100000_lead_quality } from './Migration20261129100000_lead_quality';
import { Migration20261129110000_lead_quality_sources } from './Migration20261129110000_lead_quality_sources';
import { Migration20261130100000_buyers } from './Migration20261130100000_buyers';
import { Migration20261201100000_lead_quality_batch_look } from './Migration20261201100000_lead_quality_batch_look';
import { Migration20261202100000_ad_costs } from './Migration20261202100000_ad_costs';
import { Migration20261203100000_day_visitor_counts } from './Migration20261203100000_day_visitor_counts';
import { Migration20261204100000_buyer_money_cents } from './Migration20261204100000_buyer_money_cents';
import { Migration20261204200000_monthly_summary } from './Migration20261204200000_monthly_summary';
import { Migration20261205100000_sale_daily_rollup } from './Migration20261205100000_sale_daily_rollup';
import { Migration20261206100000_website_lead_look_batch } from './Migration20261206100000_website_lead_look_batch';
import { Migration20261207300000_sale_unknown } from './Migration20261207300000_sale_unknown';
import { Migration20261207400000_sale_daily_gross } from './Migration20261207400000_sale_daily_gross';
import { Migration20261207600000_experiments } from './Migration20261207600000_experiments';

// Explicit list so the bundled server needs no file discovery. Append new migrations in order.
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261122000000_initial', class: Migration20261122000000_initial },
  { name: 'Migration20261122010000_admin_auth', class: Migration20261122010000_admin_auth },
  { name: 'Migration20261122015000_audit_log', class: Migration20261122015000_audit_log },
  { name: 'Migration20261122030000_analytics_rollups', class: Migration20261122030000_analytics_rollups },
  {
    name: 'Migration20261122031000_analytics_monthly_rollups',
    class: Migration20261122031000_analytics_monthly_rollups,
  },
  { name: 'Migration20261122040000_consent_partner', class: Migration20261122040000_consent_partner },
  {
    name: 'Migration20261123100000_one_statement_writes',
    class: Migration20261123100000_one_statement_writes,
  },
  { name: 'Migration20261123110000_lead_search', class: Migration20261123110000_lead_search },
  { name: 'Migration20261124100000_attribution', class: Migration20261124100000_attribution },
  {
    name: 'Migration20261124200000_lead_rollup_deltas',
    class: Migration20261124200000_lead_rollup_deltas,
  },
  { name: 'Migration20261124230000_rate_limit_hits', class: Migration20261124230000_rate_limit_hits },
  { name: 'Migration20261125100000_lead_retry_key', class: Migration20261125100000_lead_retry_key },
  { name: 'Migration20261126100000_admin_two_factor', class: Migration20261126100000_admin_two_factor },
  {
    name: 'Migration20261127100000_visit_funnel_devices',
    class: Migration20261127100000_visit_funnel_devices,
  },
  {
    name: 'Migration20261127150000_analytics_rollup_deltas',
    class: Migration20261127150000_analytics_rollup_deltas,
  },
  { name: 'Migration20261127500000_email_reports', class: Migration20261127500000_email_reports },
  { name: 'Migration20261127300000_webhooks', class: Migration20261127300000_webhooks },
  { name: 'Migration20261128100000_webhook_outbox', class: Migration20261128100000_webhook_outbox },
  { name: 'Migration20261129100000_lead_quality', class: Migration20261129100000_lead_quality },
  {
    name: 'Migration20261129110000_lead_quality_sources',
    class: Migration20261129110000_lead_quality_sources,
  },
  { name: 'Migration20261130100000_buyers', class: Migration20261130100000_buyers },
  {
    name: 'Migration20261201100000_lead_quality_batch_look',
    class: Migration20261201100000_lead_quality_batch_look,
  },
  { name: 'Migration20261202100000_ad_costs', class: Migration20261202100000_ad_costs },
  { name: 'Migration20261203100000_day_visitor_counts', class: Migration20261203100000_day_visitor_counts },
  {
    name: 'Migration20261204100000_buyer_money_cents',
    class: Migration20261204100000_buyer_money_cents,
  },
  {
    name: 'Migration20261204200000_monthly_summary',
    class: Migration20261204200000_monthly_summary,
  },
  {
    name: 'Migration20261205100000_sale_daily_rollup',
    class: Migration20261205100000_sale_daily_rollup,
  },
  {
    name: 'Migration20261206100000_website_lead_look_batch',
    class: Migration20261206100000_website_lead_look_batch,
  },
  {
    name: 'Migration20261207300000_sale_unknown',
    class: Migration20261207300000_sale_unknown,
  },
  {
    name: 'Migration20261207400000_sale_daily_gross',
    class: Migration20261207400000_sale_daily_gross,
  },
  {
    name: 'Migration20261207600000_experiments',
    class: Migration20261207600000_experiments,
  },
];
