import { AdminRecoveryCode } from './admin-recovery-code.entity';
import { AdminSession } from './admin-session.entity';
import { AdminUser } from './admin-user.entity';
import { AnalyticsEvent } from './analytics-event.entity';
import {
  AnalyticsDailyCountry,
  AnalyticsDailyCountryReferrer,
  AnalyticsDailyDevice,
  AnalyticsDailyReferrer,
  AnalyticsDailySource,
  AnalyticsDailyType,
  AnalyticsDayVisitor,
  AnalyticsMonthlyCountry,
  AnalyticsMonthlyCountryReferrer,
  AnalyticsMonthlyDevice,
  AnalyticsMonthlyReferrer,
  AnalyticsMonthlySource,
  AnalyticsSalt,
  AnalyticsVisit,
} from './analytics-rollup.entity';
import { ApiLead } from './api-lead.entity';
import { AppSecret } from './app-secret.entity';
import { AuditLog } from './audit-log.entity';
import { ConsentReceipt } from './consent-receipt.entity';
import { ConsentText } from './consent-text.entity';
import { EmailAlertSent, EmailReportSent } from './email-sent.entity';
import { Partner, PartnerApiKey, PartnerIdempotency } from './partner.entity';
import { RateLimitBucket } from './rate-limit-bucket.entity';
import { Suppression } from './suppression.entity';
import { WebsiteLead } from './website-lead.entity';

// Listed explicitly (no folder discovery) so the bundle and the ORM agree.
export const entities = [
  WebsiteLead,
  ApiLead,
  AnalyticsEvent,
  AnalyticsDailyType,
  AnalyticsDailyCountry,
  AnalyticsDailyReferrer,
  AnalyticsDailyCountryReferrer,
  AnalyticsMonthlyCountry,
  AnalyticsMonthlyReferrer,
  AnalyticsMonthlyCountryReferrer,
  AnalyticsSalt,
  AnalyticsVisit,
  AnalyticsDayVisitor,
  AnalyticsDailySource,
  AnalyticsMonthlySource,
  AnalyticsDailyDevice,
  AnalyticsMonthlyDevice,
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
];
