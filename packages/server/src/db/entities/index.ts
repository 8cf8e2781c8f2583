import { AdminRecoveryCode } from './admin-recovery-code.entity';
import { AdminSession } from './admin-session.entity';
import { AdminUser } from './admin-user.entity';
import { AnalyticsEvent } from './analytics-event.entity';
import { ApiLead } from './api-lead.entity';
import { AppSecret } from './app-secret.entity';
import { AuditLog } from './audit-log.entity';
import { ConsentReceipt } from './consent-receipt.entity';
import { ConsentText } from './consent-text.entity';
import { EmailAlertSent, EmailReportSent } from './email-sent.entity';
import { Partner, PartnerApiKey, PartnerIdempotency } from './partner.entity';
import { QualitySettingsRow } from './quality-settings.entity';
import { RateLimitBucket } from './rate-limit-bucket.entity';
import { Suppression } from './suppression.entity';
import { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from './webhook.entity';
import { WebsiteLead } from './website-lead.entity';

// Listed explicitly (no folder discovery) so the bundle and the ORM agree. The analytics rollups have
// no entities: only their SQL writes and reads them (ingest, report), and they are delta tables with
// no primary key (ADR 061).
export const entities = [
  WebsiteLead,
  ApiLead,
  AnalyticsEvent,
  AdminUser,
  AdminSession,
  AdminRecoveryCode,
  AppSecret,
  RateLimitBucket,
  AuditLog,
  ConsentText,
  ConsentReceipt,
  Suppression,
  Partner,
  PartnerApiKey,
  PartnerIdempotency,
  EmailReportSent,
  EmailAlertSent,
  WebhookEndpoint,
  WebhookDelivery,
  WebhookAttempt,
  QualitySettingsRow,
];
