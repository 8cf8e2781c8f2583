import nodemailer from 'nodemailer';
import type { Email } from './email-message';

// Outgoing mail over SMTP (issue 24, ADR 063): one nodemailer transport per app, from SMTP_URL. The URL
// carries the credentials, so it is never logged and never part of an error message.

export type Mailer = {
  /** False when SMTP_URL is unset: nothing is sent and the Account page says so. */
  configured: boolean;
  send(to: string, email: Email): Promise<void>;
  close(): void;
};

/** An SMTP failure as a sentence an admin can act on (no credentials, no stack). */
export class MailError extends Error {
  override name = 'MailError';
}

const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

function describe(err: unknown): string {
  const e = err as { code?: string; responseCode?: number; response?: string };
  switch (e.code) {
    case 'EAUTH':
      return 'The mail server refused the sign-in: check the user and password in SMTP_URL.';
    case 'ECONNECTION':
    case 'ETIMEDOUT':
    case 'ESOCKET':
    case 'EDNS':
      return 'The mail server could not be reached: check the host and port in SMTP_URL.';
    case 'ETLS':
      return 'The secure connection to the mail server failed: check smtps:// or the port in SMTP_URL.';
    default: {
      // The server's own answer (e.g. "550 5.1.1 mailbox unavailable") says what it refused.
      const reply = typeof e.response === 'string' ? e.response.replace(/\s+/g, ' ').slice(0, 200) : '';
      return reply ? `The mail server refused the message: ${reply}` : 'The mail server refused the message.';
    }
  }
}

export function createMailer(smtpUrl: string | undefined, from: string): Mailer {
  if (!smtpUrl) {
    return {
      configured: false,
      async send() {
        throw new MailError('E-mail is not configured on this server (SMTP_URL).');
      },
      close() {},
    };
  }
  const transport = nodemailer.createTransport({ url: smtpUrl, ...TIMEOUTS });
  return {
    configured: true,
    async send(to, email) {
      try {
        await transport.sendMail({ from, to, subject: email.subject, text: email.text, html: email.html });
      } catch (err) {
        throw new MailError(describe(err));
      }
    },
    close: () => transport.close(),
  };
}
