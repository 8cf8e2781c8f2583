import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

// A local SMTP sink (smtp-server on 127.0.0.1) for the tests of e-mails the app sends: it keeps what it
// receives, and refuses the REFUSED recipient as a mail server refuses an unknown mailbox.

export type Received = { from: string; to: string[]; raw: string };
export const REFUSED = 'refused@example.com';

export function startSink() {
  const inbox: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address === REFUSED) {
        const err = Object.assign(new Error('5.1.1 mailbox unavailable'), { responseCode: 550 });
        return callback(err);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        inbox.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          // Quoted-printable soft line breaks joined back, so figures read as written.
          raw: Buffer.concat(chunks).toString('utf8').replace(/=\r\n/g, ''),
        });
        callback();
      });
    },
  });
  return new Promise<{ inbox: Received[]; port: number; close(): Promise<void> }>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({
        inbox,
        port: (server.server.address() as AddressInfo).port,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}
