import type { EmailSettings, EmailSettingsInput } from '@uf/shared/email-reports.schema';
import { ERROR_CODES } from '@uf/shared/errors';
import type { Pool } from 'pg';
import { recordAudit } from '../admin/audit.service';
import { AppError, rateLimitedError } from '../errors';
import { periodicJob } from '../platform/periodic-job';
import { hitRateLimit } from '../platform/rate-limit.service';
import {
  type Email,
  formatRate,
  renderAlert,
  renderSummary,
  renderTestEmail,
  type SummarySection,
} from './email-message';
import { businessHoursBetween, type DueReport, dueReports, isBusinessTime } from './email-schedule';
import { MailError, type Mailer } from './mailer';

// E-mail reports and alerts (issue 24, ADR 063). Several replicas may run the scheduler at the same
// moment: a report is claimed by inserting (rule, period) into email_report_sent — on conflict nothing —
// and only the replica whose insert returned a row sends it; an alert is claimed by moving its rule's
// sent_at forward only when the last one is at least 12 hours old. The clock is injected: tests pass the
// instant to runDue() instead of waiting for 09:00.

const MINUTE_MS = 60_000;
export const ALERT_INTERVAL_HOURS = 12;

export type SummaryPeriod = { from: Date; to: Date };
/** Adds a section to every summary (webhook deliveries add their failed count this way). */
export type SummarySectionSource = (pool: Pool, period: SummaryPeriod) => Promise<SummarySection>;

type Recipient = { email: string };
type AlertRule = 'no_leads' | 'endpoint_disabled' | `buyer_paused:${string}` | `buyer_idle:${string}`;
const REPORT_KIND = { daily: 'Daily', weekly: 'Weekly', monthly: 'Monthly' } as const;
const OPT_IN_COLUMN = {
  daily: 'email_daily_summary',
  weekly: 'email_weekly_summary',
  monthly: 'email_monthly_summary',
  alerts: 'email_alerts',
};

const TOP = 5;
/** Test e-mails per admin: enough to fix a setting and try again, not a way to flood an inbox. */
export const TEST_EMAIL_LIMIT = { perAdmin: 5, windowSeconds: 600 };

/** The signed-in admin a settings call is for (audit: who, from where). */
export type ActingAdmin = { id: string; username: string; ip: string };

/** The lead sections of a summary: leads by kind, consent rate, top sources and states, opt-outs. */
export const leadSummarySections: SummarySectionSource[] = [
  async (pool, { from, to }) => {
    const { rows } = await pool.query<{ website: string; consented: string; api: string }>(
      `select
         (select count(*) from website_lead where created_at >= $1 and created_at < $2) as website,
         (select count(*) from website_lead where created_at >= $1 and created_at < $2 and consent_given) as consented,
         (select count(*) from api_lead where created_at >= $1 and created_at < $2) as api`,
      [from, to],
    );
    const website = Number(rows[0]?.website ?? 0);
    const api = Number(rows[0]?.api ?? 0);
    const consented = Number(rows[0]?.consented ?? 0);
    return {
      title: 'Leads',
      rows: [
        { label: 'Website leads', value: String(website) },
        { label: 'API leads', value: String(api) },
        { label: 'All leads', value: String(website + api) },
        { label: 'Consent rate (website)', value: formatRate(consented, website) },
      ],
    };
  },
  async (pool, { from, to }) => {
    const { rows } = await pool.query<{ name: string; n: string }>(
      `select name, count(*) as n from (
         select coalesce(nullif(source, ''), '(direct)') as name from website_lead
          where created_at >= $1 and created_at < $2
         union all
         select 'API: ' || coalesce(p.name, '(no partner)') from api_lead a left join partner p on p.id = a.partner_id
          where a.created_at >= $1 and a.created_at < $2
       ) s group by name order by n desc, name limit ${TOP}`,
      [from, to],
    );
    return { title: 'Top sources', rows: rows.map((r) => ({ label: r.name, value: r.n })) };
  },
  async (pool, { from, to }) => {
    const { rows } = await pool.query<{ name: string; n: string }>(
      `select name, count(*) as n from (
         select coalesce(state, '(unknown)') as name from website_lead where created_at >= $1 and created_at < $2
         union all
         select state from api_lead where created_at >= $1 and created_at < $2
       ) s group by name order by n desc, name limit ${TOP}`,
      [from, to],
    );
    return { title: 'Top states', rows: rows.map((r) => ({ label: r.name, value: r.n })) };
  },
  async (pool, { from, to }) => {
    const { rows } = await pool.query<{ n: string }>(
      'select count(*) as n from suppression where created_at >= $1 and created_at < $2',
      [from, to],
    );
    return {
      title: 'Opt-outs',
      rows: [{ label: 'Addresses and numbers added to the suppression list', value: rows[0]?.n ?? '0' }],
    };
  },
];

export type EmailReportsDeps = {
  pool: Pool;
  mailer: Mailer;
  timeZone: string;
  alertNoLeadsHours: number;
  clock: () => Date;
  /** Where failures that nobody waits for go (the app's log). */
  warn: (msg: string, detail?: object) => void;
};

export function createEmailReports(deps: EmailReportsDeps) {
  const { pool, mailer, timeZone } = deps;
  const sections: SummarySectionSource[] = [...leadSummarySections];

  const recipients = async (optIn: keyof typeof OPT_IN_COLUMN): Promise<Recipient[]> =>
    (
      await pool.query<Recipient>(
        `select email from admin_user where email is not null and ${OPT_IN_COLUMN[optIn]} order by email`,
      )
    ).rows;

  /** Sends one message to each recipient; answers how many got it (one failure does not stop the rest). */
  async function sendToAll(to: Recipient[], email: Email, what: string): Promise<number> {
    let sent = 0;
    for (const r of to) {
      try {
        await mailer.send(r.email, email);
        sent++;
      } catch (err) {
        deps.warn(`${what}: e-mail not sent`, {
          reason: err instanceof MailError ? err.message : String(err),
        });
      }
    }
    return sent;
  }

  async function summaryEmail(report: DueReport): Promise<Email> {
    const period = { from: report.from, to: report.to };
    return renderSummary({
      kind: REPORT_KIND[report.rule],
      periodLabel: report.label,
      timeZone,
      sections: await Promise.all(sections.map((source) => source(pool, period))),
    });
  }

  async function sendReport(report: DueReport): Promise<boolean> {
    const claim = await pool.query(
      `insert into email_report_sent (rule, period_key) values ($1, $2)
       on conflict (rule, period_key) do nothing returning rule`,
      [report.rule, report.periodKey],
    );
    if (claim.rowCount !== 1) return false;
    const to = await recipients(report.rule);
    const sent = to.length ? await sendToAll(to, await summaryEmail(report), `${report.rule} summary`) : 0;
    if (to.length > 0 && sent === 0) {
      // Nobody got it (the mail server is down): give the claim back so the next run tries again.
      await pool.query('delete from email_report_sent where rule = $1 and period_key = $2', [
        report.rule,
        report.periodKey,
      ]);
      return false;
    }
    await pool.query('update email_report_sent set recipients = $3 where rule = $1 and period_key = $2', [
      report.rule,
      report.periodKey,
      sent,
    ]);
    return true;
  }

  /** Claims the rule for the next 12 hours: true for exactly one caller among replicas. */
  async function claimAlert(rule: AlertRule, now: Date): Promise<boolean> {
    const { rowCount } = await pool.query(
      `insert into email_alert_sent (rule, sent_at) values ($1, $2)
       on conflict (rule) do update set sent_at = excluded.sent_at
       where email_alert_sent.sent_at <= excluded.sent_at - make_interval(hours => $3)`,
      [rule, now, ALERT_INTERVAL_HOURS],
    );
    return rowCount === 1;
  }

  async function sendAlert(rule: AlertRule, now: Date, title: string, lines: string[]): Promise<boolean> {
    if (!mailer.configured) return false;
    if (!(await claimAlert(rule, now))) return false;
    const to = await recipients('alerts');
    await sendToAll(to, renderAlert({ title, lines }), `${rule} alert`);
    return true;
  }

  async function checkNoLeads(now: Date): Promise<boolean> {
    // Sent in business hours only: a quiet weekend does not page anyone every 12 hours.
    if (!isBusinessTime(now, timeZone)) return false;
    const { rows } = await pool.query<{ last: Date | null }>(
      `select greatest((select max(created_at) from website_lead), (select max(created_at) from api_lead)) as last`,
    );
    const last = rows[0]?.last;
    // No lead ever: nothing has stopped, the site is new.
    if (!last) return false;
    const hours = businessHoursBetween(last, now, timeZone);
    if (hours < deps.alertNoLeadsHours) return false;
    return sendAlert('no_leads', now, `No lead for ${deps.alertNoLeadsHours} business hours`, [
      `The last lead (website or API) arrived at ${last.toISOString()} (${Math.floor(hours)} business hours ago, business hours being 09:00 to 17:00 Monday to Friday in ${timeZone}).`,
      'Check that the lead form and the partner API answer, and that traffic still arrives.',
    ]);
  }

  /** Everything due at `now`: the summaries of the period before, and the "no lead" alert. */
  async function runDue(now: Date = deps.clock()) {
    const sent: string[] = [];
    if (!mailer.configured) return sent;
    for (const report of dueReports(now, timeZone)) {
      if (await sendReport(report)) sent.push(`${report.rule}:${report.periodKey}`);
    }
    if (await checkNoLeads(now)) sent.push('alert:no_leads');
    return sent;
  }

  const job = periodicJob(() => runDue(), MINUTE_MS, MINUTE_MS);

  return {
    get configured() {
      return mailer.configured;
    },
    /** Another part of the app adds a section to every summary (e.g. failed webhook deliveries). */
    addSummarySection(source: SummarySectionSource) {
      sections.push(source);
    },
    runDue,
    /** The summary a report would carry (for tests and previews), without sending it. */
    summaryEmail,
    alerts: {
      /**
       * A webhook endpoint was disabled (410, or failing for days): the admins who opted in to alerts
       * hear of it, at most once per 12 hours. Never throws: the caller's work must not fail with it.
       */
      async endpointDisabled(input: { url: string; reason: string }, now: Date = deps.clock()) {
        try {
          return await sendAlert('endpoint_disabled', now, 'A webhook endpoint was disabled', [
            `Endpoint: ${input.url}`,
            `Reason: ${input.reason}`,
            'Fix the receiver, then enable the endpoint again on the Webhooks screen; failed deliveries can be resent from there.',
          ]);
        } catch (err) {
          deps.warn('endpoint_disabled alert failed', { err });
          return false;
        }
      },
      /** A lead buyer was paused for its errors in a row (issue 34, ADR 069); never throws. */
      async buyerPaused(input: { id: string; name: string; reason: string }, now: Date = deps.clock()) {
        try {
          return await sendAlert(`buyer_paused:${input.id}`, now, `Lead buyer paused: ${input.name}`, [
            `Buyer: ${input.name}`,
            `Reason: ${input.reason}`,
            'Leads now go to the next buyers in the waterfall. Check its log on the Buyers screen, fix the posting spec or ask the buyer, then resume it.',
          ]);
        } catch (err) {
          deps.warn('buyer_paused alert failed', { err });
          return false;
        }
      },
      /** An active buyer accepted nothing for hours it was open (issue 34); at most once per 12 hours each. */
      async buyerIdle(
        input: { id: string; name: string; openHours: number; offered: number },
        now: Date = deps.clock(),
      ) {
        try {
          return await sendAlert(`buyer_idle:${input.id}`, now, `Lead buyer accepts nothing: ${input.name}`, [
            `Buyer: ${input.name}`,
            `It was offered ${input.offered} leads in its last ${input.openHours} open hours and accepted none.`,
            'Check its log on the Buyers screen: its answers may have changed shape, or its response rules may no longer match.',
          ]);
        } catch (err) {
          deps.warn('buyer_idle alert failed', { err });
          return false;
        }
      },
      /**
       * Wrong codes locked an admin's second factor (issue 38, ADR 066): someone holds their password. Sent
       * to that admin's own address whatever their alert choices — it is about their account — and never
       * throws: the sign-in's answer does not depend on it.
       */
      async secondFactorLocked(input: {
        adminId: string;
        username: string;
        ip: string;
        failures: number;
        retryAfterSeconds: number;
      }): Promise<boolean> {
        try {
          if (!mailer.configured) return false;
          const { rows } = await pool.query<Recipient>(
            'select email from admin_user where id = $1 and email is not null',
            [input.adminId],
          );
          const minutes = Math.ceil(input.retryAfterSeconds / 60);
          const sent = await sendToAll(
            rows,
            renderAlert({
              title: `Two-factor sign-in locked for ${input.username}`,
              lines: [
                `${input.failures} wrong two-factor codes were entered for the admin account ${input.username} after its correct password, the last from ${input.ip}.`,
                `Two-factor codes for this account are refused from every address for the next ${minutes} minute(s).`,
                'If this was not you, someone knows your password: change it on the Account page as soon as you can sign in, and end the sessions you do not recognise.',
              ],
            }),
            'second_factor_locked alert',
          );
          return sent > 0;
        } catch (err) {
          deps.warn('second_factor_locked alert failed', { err });
          return false;
        }
      },
    },
    /** The Account page's "Send test e-mail": to the signed-in admin's address, now. */
    async sendTest(admin: ActingAdmin) {
      const adminId = admin.id;
      if (!mailer.configured) {
        throw new AppError(
          ERROR_CODES.validation,
          'E-mail is not configured on this server (SMTP_URL is not set).',
        );
      }
      const { rows } = await pool.query<{ email: string | null; username: string }>(
        'select email, username from admin_user where id = $1',
        [adminId],
      );
      const to = rows[0]?.email;
      if (!to) {
        throw new AppError(
          ERROR_CODES.validation,
          'Add your e-mail address first, then send a test e-mail.',
          [{ field: 'email', message: 'Add your e-mail address first' }],
        );
      }
      const hit = await hitRateLimit(
        pool,
        `test-email:${adminId}`,
        TEST_EMAIL_LIMIT.perAdmin,
        TEST_EMAIL_LIMIT.windowSeconds,
      );
      if (!hit.allowed) {
        throw rateLimitedError(
          'Too many test e-mails. Please try again in a few minutes.',
          hit.retryAfterSeconds,
        );
      }
      try {
        await mailer.send(to, renderTestEmail({ username: admin.username }));
      } catch (err) {
        if (err instanceof MailError) throw new AppError(ERROR_CODES.unprocessable, err.message);
        throw err;
      }
      await recordAudit(pool, {
        actor: admin.username,
        action: 'admin.test_email_sent',
        ipAddress: admin.ip,
      });
      return { ok: true as const, to };
    },
    async settings(adminId: string): Promise<EmailSettings> {
      const { rows } = await pool.query<{
        email: string | null;
        daily: boolean;
        weekly: boolean;
        monthly: boolean;
        alerts: boolean;
      }>(
        `select email, email_daily_summary as daily, email_weekly_summary as weekly,
           email_monthly_summary as monthly, email_alerts as alerts
         from admin_user where id = $1`,
        [adminId],
      );
      const r = rows[0];
      if (!r) throw new AppError(ERROR_CODES.unauthorized, 'Please sign in');
      return {
        email: r.email ?? '',
        dailySummary: r.daily,
        weeklySummary: r.weekly,
        monthlySummary: r.monthly,
        alerts: r.alerts,
        configured: mailer.configured,
      };
    },
    async updateSettings(admin: ActingAdmin, input: EmailSettingsInput): Promise<EmailSettings> {
      const adminId = admin.id;
      const { rows } = await pool.query<{ monthly: boolean }>(
        `update admin_user set email = $2, email_daily_summary = $3, email_weekly_summary = $4,
           -- Left out, it is kept, unless the address goes: without one nothing can be sent.
           email_monthly_summary = case when $2::text is null then false else coalesce($6, email_monthly_summary) end,
           email_alerts = $5, updated_at = now()
         where id = $1 returning email_monthly_summary as monthly`,
        [
          adminId,
          input.email || null,
          input.dailySummary,
          input.weeklySummary,
          input.alerts,
          input.monthlySummary ?? null,
        ],
      );
      const monthlySummary = rows[0]?.monthly ?? false;
      await recordAudit(pool, {
        actor: admin.username,
        action: 'admin.email_settings_changed',
        detail: {
          hasEmail: input.email !== '',
          dailySummary: input.dailySummary,
          weeklySummary: input.weeklySummary,
          monthlySummary,
          alerts: input.alerts,
        },
        ipAddress: admin.ip,
      });
      return { ...input, monthlySummary, configured: mailer.configured };
    },
    /** Runs the scheduler every minute (only when SMTP_URL is set). */
    start(onError: (err: unknown) => void) {
      if (mailer.configured) job.start(onError);
    },
    async close() {
      await job.stop();
      mailer.close();
    },
  };
}

export type EmailReports = ReturnType<typeof createEmailReports>;
