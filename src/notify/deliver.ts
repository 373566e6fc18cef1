/**
 * notify job → **delivery**: the event's body sent on its channel with the settings of the
 * process that delivers it. What to do after a failure is decided here too: when to try again
 * (doubling waits, the receiver's Retry-After obeyed) until NOTIFY_RETRY_HOURS after the event
 * was queued.
 */
import { z } from 'zod';

import type { Context } from '../context.js';
import { sendEmail } from './email.js';
import type { BodyRead } from './email-text.js';
import { NotifyError } from './errors.js';
import type { NotifyJob } from './queue-notification.js';
import { postWebhook, webhookHost } from './webhook.js';
import { NOTIFY_MAX_WAIT_MS, NOTIFY_RETRY_HOURS } from '../policy.js';

/** Sends one notification; throws a NotifyError when it was not delivered. */
export async function deliverNotification(
  ctx: Pick<Context, 'settings' | 'stop' | 'now' | 'logger' | 'words'>,
  job: NotifyJob,
): Promise<void> {
  const notify = ctx.settings.notify;
  const where = { notification: job.id, event: job.event, channel: job.channel };
  if (job.channel === 'webhook') {
    const webhook = notify?.webhook;
    if (webhook === undefined) throw unconfigured('NOTIFY_WEBHOOK_URL');
    await postWebhook(webhook, job, { signal: ctx.stop.now.signal, now: ctx.now });
    ctx.logger.info({ ...where, to: webhookHost(webhook.url) }, 'notification delivered');
    return;
  }
  const email = notify?.email;
  if (email === undefined) throw unconfigured('NOTIFY_EMAIL_TO, NOTIFY_EMAIL_FROM and SMTP_URL');
  // In the office's words: the connection's language, else this process's.
  await sendEmail(ctx.words, email, JSON.parse(job.body) as BodyRead, ctx.settings.reportsDir);
  ctx.logger.info({ ...where, to: email.to.length }, 'notification delivered');
}

const reportBodySchema = z.object({ summary: z.object({ sheetId: z.string().min(1) }) });

/**
 * The sheet whose report folder a delivery reads (an e-mail of `sheet.done` attaches its
 * report.csv, on the disk of the sheet's installation); undefined for one that reads no file.
 */
export function reportSheetOf(job: NotifyJob): string | undefined {
  if (job.channel !== 'email' || job.event !== 'sheet.done') return undefined;
  let body: unknown;
  try {
    body = JSON.parse(job.body);
  } catch (error) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
  const parsed = reportBodySchema.safeParse(body);
  return parsed.success ? parsed.data.summary.sheetId : undefined;
}

/** A process without the channel's settings cannot send it: the one that has them will. */
function unconfigured(settings: string): NotifyError {
  return new NotifyError(
    `this process has no ${settings}: set ${settings} where \`worker\` and \`watch\` run`,
    'retry',
  );
}

/**
 * How long to wait before the next try, or undefined when that would pass NOTIFY_RETRY_HOURS
 * after the event was queued (`queuedAt`): the notification is then given up.
 */
export function nextTryInMs(
  ctx: Pick<Context, 'settings' | 'now'>,
  failure: { tries: number; queuedAt: number; retryAfterMs?: number | undefined },
  random: () => number = Math.random,
): number | undefined {
  const base = ctx.settings.retryDelayMs * 2 ** Math.min(failure.tries, 30);
  const backoff = Math.min(NOTIFY_MAX_WAIT_MS, base) * (0.5 + random() * 0.5);
  const wait = Math.max(backoff, failure.retryAfterMs ?? 0);
  const deadline =
    failure.queuedAt + (ctx.settings.notify?.retryHours ?? NOTIFY_RETRY_HOURS) * 3_600_000;
  return ctx.now() + wait > deadline ? undefined : Math.round(wait);
}
