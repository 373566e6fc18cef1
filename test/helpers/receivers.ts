/**
 * Real receivers of notifications for the tests: an HTTP server (node:http) and an SMTP server
 * (smtp-server), each in this process on a free port, keeping what they were sent.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

import { SMTPServer } from 'smtp-server';

import { eventually } from './eventually.js';

export interface Received {
  headers: IncomingHttpHeaders;
  /** The raw body, as sent. */
  body: string;
}

export interface WebhookReceiver {
  url: string;
  received: Received[];
  /** The status answered to a request, the n-th (0-based) of its event id; 204 when not said. */
  answer: (
    request: Received,
    n: number,
  ) => number | { status: number; headers?: Record<string, string> } | 'hold';
  /** Resolves once `count` requests (satisfying `which`) have come. */
  waitFor(count: number, which?: (r: Received) => boolean, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function webhookReceiver(): Promise<WebhookReceiver> {
  const received: Received[] = [];
  const receiver: Omit<WebhookReceiver, 'url' | 'close'> = {
    received,
    answer: () => 204,
    waitFor: (count, which = () => true, timeoutMs = 60_000) =>
      eventually(
        () => {
          const found = received.filter(which);
          return found.length >= count ? found : undefined;
        },
        () => `${count} webhook request(s) wanted, ${received.filter(which).length} came`,
        timeoutMs,
      ),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      const id = req.headers['x-order-importer-event'];
      const n = received.filter((r) => r.headers['x-order-importer-event'] === id).length;
      received.push(request);
      const said = receiver.answer(request, n);
      // Held open: as if the receiver were slow, while the test does something in between.
      if (said === 'hold') return;
      const { status, headers = {} } = typeof said === 'number' ? { status: said } : said;
      res.writeHead(status, headers).end(status >= 300 ? `answer ${status}` : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}/hooks/orders?key=k1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  });
}

export interface Mail {
  from: string;
  to: string[];
  /** The whole message as the server got it (MIME). */
  raw: string;
  user: string | undefined;
  password: string | undefined;
}

export interface SmtpReceiver {
  /** smtp://user:password@127.0.0.1:<port> */
  url: string;
  user: string;
  password: string;
  mails: Mail[];
  /** The SMTP code answered to a message (its MIME text); 250 when not said. */
  answer: (raw: string) => number;
  waitFor(count: number, timeoutMs?: number): Promise<Mail[]>;
  close(): Promise<void>;
}

export async function smtpReceiver(): Promise<SmtpReceiver> {
  const user = 'notifier';
  const password = 'p@ss w0rd:secret';
  const mails: Mail[] = [];
  const auths = new Map<string, { user: string; password: string }>();
  const receiver = {
    user,
    password,
    mails,
    answer: (_raw: string) => 250,
    waitFor: (count: number, timeoutMs = 60_000) =>
      eventually(
        () => (mails.length >= count ? mails : undefined),
        () => `${count} e-mail(s) wanted, ${mails.length} came`,
        timeoutMs,
      ),
  };
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, session, callback) {
      auths.set(session.id, { user: auth.username ?? '', password: auth.password ?? '' });
      callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const code = receiver.answer(raw);
        if (code !== 250) {
          callback(Object.assign(new Error(`answer ${code}`), { responseCode: code }));
          return;
        }
        const auth = auths.get(session.id);
        mails.push({
          from: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          user: auth?.user,
          password: auth?.password,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `smtp://${user}:${encodeURIComponent(password)}@127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      }),
  });
}

/** The attachment `name` of a MIME message, decoded from base64. */
export function attachmentOf(raw: string, name: string): Buffer | undefined {
  const parts = raw.split(/\r?\n--/);
  const part = parts.find((p) => new RegExp(`filename="?${name}"?`).test(p));
  if (part === undefined) return undefined;
  const body = part
    .split(/\r?\n\r?\n/)
    .slice(1)
    .join('\n');
  return Buffer.from(body.replace(/\s+/g, ''), 'base64');
}

/** The text part of a MIME message, decoded (quoted-printable or base64 or plain). */
export function textOf(raw: string): string {
  const parts = raw.split(/\r?\n--/);
  const part =
    parts.find((p) => /content-type:\s*text\/plain/i.test(p) && !/filename=/i.test(p)) ?? raw;
  const [head = '', ...rest] = part.split(/\r?\n\r?\n/);
  const body = rest.join('\n\n');
  if (/content-transfer-encoding:\s*base64/i.test(head))
    return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (/content-transfer-encoding:\s*quoted-printable/i.test(head))
    return Buffer.from(
      body
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      'latin1',
    ).toString('utf8');
  return body;
}

/** The Subject of a MIME message, unfolded and its encoded words (RFC 2047) decoded. */
export function subjectOf(raw: string): string {
  const head = raw.split(/\r?\n\r?\n/)[0] ?? '';
  const line = /^Subject:(.*(?:\r?\n[ \t].*)*)/im.exec(head)?.[1] ?? '';
  return line
    .replace(/\?=\r?\n[ \t]+=\?/g, '?==?')
    .replace(/\r?\n[ \t]+/g, ' ')
    .replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_m, how: string, text: string) =>
      how.toLowerCase() === 'b'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (_q, hex: string) =>
                String.fromCharCode(parseInt(hex, 16)),
              ),
            'latin1',
          ).toString('utf8'),
    )
    .trim();
}
