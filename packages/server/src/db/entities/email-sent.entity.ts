import { defineEntity, p } from '@mikro-orm/core';

/** A report claimed for sending (issue 24, ADR 063): one row per rule and period, whichever replica wins. */
export const EmailReportSent = defineEntity({
  name: 'EmailReportSent',
  tableName: 'email_report_sent',
  properties: {
    rule: p.text().primary(),
    periodKey: p.text().primary(),
    sentAt: p.datetime().onCreate(() => new Date()),
    recipients: p.integer().default(0),
  },
});

/** The last time each alert rule went out: at most one per rule per 12 hours. */
export const EmailAlertSent = defineEntity({
  name: 'EmailAlertSent',
  tableName: 'email_alert_sent',
  properties: {
    rule: p.text().primary(),
    sentAt: p.datetime(),
  },
});
