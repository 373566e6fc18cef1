/**
 * The e-mail channel: one message per event through SMTP (nodemailer), its text from
 * email-text.ts in the office's words, report.csv attached for `sheet.done` — read from the report folder when the
 * message is sent, byte for byte. An SMTP 4xx or a network error is retried; a 5xx ends it. The
 * SMTP URL's credentials are never in a log line or an error.
 */
import { lstat, readFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';

import { NotifyError, withoutSecrets } from './errors.js';
import {
  type BodyRead,
  type EmailText,
  ordersChangedText,
  sheetDoneText,
  sheetUnreadableText,
} from './email-text.js';
import type { Words } from '../language/words.js';
import { NOTIFY_TIMEOUT_MS } from '../policy.js';

export interface EmailTarget {
  to: string[];
  from: string;
  smtpUrl: string;
}

interface Attachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

/** Sends the event's e-mail, its subject and text in `words` (the office's). */
export async function sendEmail(
  words: Words,
  target: EmailTarget,
  body: BodyRead,
  reportsDir: string,
): Promise<void> {
  const { text, attachments } = await messageOf(words, body, reportsDir);
  // Loaded when a mail is sent: most processes send none, and need not load it to start.
  const { createTransport } = await import('nodemailer');
  const transport = createTransport(target.smtpUrl, {
    connectionTimeout: NOTIFY_TIMEOUT_MS,
    greetingTimeout: NOTIFY_TIMEOUT_MS,
    socketTimeout: NOTIFY_TIMEOUT_MS,
  });
  try {
    await transport.sendMail({
      from: target.from,
      to: target.to,
      subject: text.subject,
      text: text.text,
      attachments,
      // The same event sent twice is one message to a mail client that looks.
      messageId: `<${body.id}@order-importer>`,
      headers: { 'X-Order-Importer-Event': body.id },
    });
  } catch (error) {
    throw smtpFailure(error, target.smtpUrl);
  } finally {
    transport.close();
  }
}

async function messageOf(
  words: Words,
  body: BodyRead,
  reportsDir: string,
): Promise<{ text: EmailText; attachments: Attachment[] }> {
  if (body.event === 'sheet.unreadable')
    return { text: sheetUnreadableText(words, body), attachments: [] };
  if (body.event === 'orders.changed')
    return { text: ordersChangedText(words, body), attachments: [] };
  const report = await reportCsv(words, body.summary?.reportDir, reportsDir);
  if (typeof report === 'string')
    return { text: sheetDoneText(words, body, report), attachments: [] };
  return {
    text: sheetDoneText(words, body, true),
    attachments: [
      { filename: 'report.csv', content: report, contentType: 'text/csv; charset=utf-8' },
    ],
  };
}

/**
 * report.csv's bytes, or why it cannot be attached (in `words`, for the e-mail). Job data is not trusted for a file's
 * location: the folder must lie in REPORTS_DIR, and the file be a plain file (no link).
 */
async function reportCsv(
  words: Words,
  reportDir: string | undefined,
  reportsDir: string,
): Promise<Buffer | string> {
  if (reportDir === undefined) return words.t('email.attach.no-folder');
  const rel = relative(resolve(reportsDir), resolve(reportDir));
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel))
    return words.t('email.attach.outside', { folder: reportDir, reportsDir });
  const path = join(reportDir, 'report.csv');
  try {
    if (!(await lstat(path)).isFile()) return words.t('email.attach.not-file', { path });
    return await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return words.t('email.attach.gone', { path });
    if (code === 'EACCES' || code === 'EPERM')
      return words.t('email.attach.denied', { path, code });
    throw error;
  }
}

/** An SMTP failure as a NotifyError: a 5xx refuses the message for good, the rest may pass later. */
function smtpFailure(error: unknown, smtpUrl: string): NotifyError {
  const e = error as { message?: string; responseCode?: number; code?: string };
  const secrets = [smtpUrl, ...credentialsOf(smtpUrl)];
  const reason = withoutSecrets(e.message ?? String(error), secrets);
  const host = URL.canParse(smtpUrl) ? new URL(smtpUrl).host : '(SMTP_URL)';
  const what = `the SMTP server at ${host} did not take the e-mail: ${reason}`;
  const code = e.responseCode;
  if (code !== undefined && code >= 500)
    return new NotifyError(
      `${what}. It refuses it for good, so it is not sent again: check NOTIFY_EMAIL_TO, NOTIFY_EMAIL_FROM and the user and password in SMTP_URL.`,
      'refused',
    );
  return new NotifyError(what, 'retry');
}

/** The user and password of an SMTP URL, as written and decoded: what must never be shown. */
function credentialsOf(smtpUrl: string): string[] {
  if (!URL.canParse(smtpUrl)) return [];
  const { username, password } = new URL(smtpUrl);
  return [password, safeDecode(password), username === '' ? '' : `${username}:`].filter(
    (s) => s.length > 0,
  );
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch (error) {
    if (!(error instanceof URIError)) throw error;
    return text;
  }
}
