import { type AnalyticsService, createAnalyticsService } from './analytics/analytics.service';
import type { BackupSource } from './backups/backup.service';
import type { AppConfig } from './config';
import type { Database } from './db/database';
import { createEmailReports, type EmailReports } from './email/email-reports.service';
import { createMailer, type Mailer } from './email/mailer';
import { createLandingArms, type LandingArms } from './experiments/landing-arms';
import { createLeadSubmitter, type LeadSubmitter } from './leads/lead.service';
import type { Metrics } from './metrics';
import { createPartnerLeadWriter, type PartnerLeadWriter } from './partners/partner-lead.service';
import { createQuality, type Quality } from './quality/quality.service';
import { createOutboxWaker, type OutboxWaker } from './webhooks/webhook-worker';

/** What procedures reach through the context: the database handles and the config. */
export type Services = {
  db: Database;
  config: AppConfig;
  /** What POST /api/admin/backup dumps: the PostgreSQL (pg_dump) or the embedded one (logical backup). */
  backupSource: BackupSource;
  /** Visitor analytics: group-commit ingestion, dashboard summary, retention. */
  analytics: AnalyticsService;
  /** Lead quality (issue 33): the settings in force and the landing page's form tokens. */
  quality: Quality;
  /** Website lead submissions: group commit of leads with their consent receipts. */
  leads: LeadSubmitter;
  /** Partner API leads: group commit with the idempotency and duplicate rules. */
  partnerLeads: PartnerLeadWriter;
  /** Fans out the webhook messages the lead writers put in the outbox, once their batch committed. */
  webhookOutbox: OutboxWaker;
  /** E-mail reports and alerts over SMTP (ADR 063): the scheduler, the alerts other features raise. */
  emailReports: EmailReports;
  /** Landing experiments (issue 48): the arm each landing request is served in, and its exposures. */
  landingArms: LandingArms;
  /** The SMTP sender (not configured without SMTP_URL): alerts, reports, e-mail buyers. */
  mailer: Mailer;
  /** Now, as the app sees it (tests inject theirs): schedules, caps, return windows. */
  clock: () => Date;
  /** A fresh entity manager per unit of work (MikroORM's identity map must not be shared). */
  em(): ReturnType<Database['orm']['em']['fork']>;
};

export function createServices(
  db: Database,
  config: AppConfig,
  backupSource: BackupSource,
  metrics: Metrics,
  options: { clock?: () => Date; warn?: (msg: string, detail?: object) => void } = {},
): Services {
  // Webhook messages the lead writers put in the outbox are fanned out after their commit (ADR 062).
  const webhookOutbox = createOutboxWaker(db.pool, (err) =>
    options.warn?.('fanning out the webhook outbox failed', { err }),
  );
  const clock = options.clock ?? (() => new Date());
  const quality = createQuality(db.pool, clock);
  const mailer = createMailer(config.mail.smtpUrl, config.mail.from);
  const analytics = createAnalyticsService({ db, config, metrics });
  return {
    mailer,
    clock,
    db,
    config,
    backupSource,
    quality,
    analytics,
    landingArms: createLandingArms({
      pool: db.pool,
      timeZone: config.timeZone,
      clock,
      visitorId: analytics.visitorId,
      warn: options.warn ?? (() => {}),
    }),
    leads: createLeadSubmitter(db.pool, quality, webhookOutbox.wake),
    partnerLeads: createPartnerLeadWriter(db.pool, quality, webhookOutbox.wake),
    webhookOutbox,
    emailReports: createEmailReports({
      pool: db.pool,
      mailer,
      timeZone: config.timeZone,
      alertNoLeadsHours: config.mail.alertNoLeadsHours,
      clock,
      warn: options.warn ?? (() => {}),
    }),
    em: () => db.orm.em.fork(),
  };
}
