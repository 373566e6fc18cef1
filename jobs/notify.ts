/** The `notify` queue: one job per event and channel (src/notify/). */
import { type Job, UnrecoverableError } from 'bullmq';

import type { Context } from '../src/context.js';
import { deliverNotification, nextTryInMs, reportSheetOf } from '../src/notify/deliver.js';
import { NotifyError } from '../src/notify/errors.js';
import { notifyJobSchema } from '../src/notify/queue-notification.js';
import { awayFromHome } from '../src/store/sheet-home.js';
import { backToQueue } from './back-to-queue.js';

export function notifyProcessor(ctx: Context) {
  return async (job: Job, token?: string): Promise<void> => {
    const data = notifyJobSchema.parse(job.data);
    // Its report.csv is on the disk of the sheet's installation: a worker of another hands the
    // job back, no try spent, rather than send the e-mail without it.
    const sheetId = reportSheetOf(data);
    const away =
      sheetId === undefined ? undefined : await awayFromHome(ctx, sheetId, job.attemptsStarted);
    if (away !== undefined) return backToQueue(job, token, away.retryInMs);
    try {
      await deliverNotification(ctx, data);
      return;
    } catch (error) {
      if (!(error instanceof NotifyError)) throw error;
      const where = { notification: data.id, event: data.event, channel: data.channel };
      if (error.kind === 'refused') {
        ctx.logger.error(
          { ...where, reason: error.message },
          'notification refused, not sent again',
        );
        throw new UnrecoverableError(error.message);
      }
      const wait = nextTryInMs(ctx, {
        tries: data.tries,
        queuedAt: job.timestamp,
        retryAfterMs: error.retryAfterMs,
      });
      if (wait === undefined) {
        ctx.logger.error(
          { ...where, reason: error.message, tries: data.tries + 1 },
          'notification given up: NOTIFY_RETRY_HOURS have passed without a delivery',
        );
        throw new UnrecoverableError(error.message);
      }
      ctx.logger.warn(
        { ...where, reason: error.message, retryInMs: wait },
        'notification not delivered yet; tried again later',
      );
      // Another try, counted in the data (a DelayedError spends no attempt).
      await job.updateData({ ...data, tries: data.tries + 1 });
      return backToQueue(job, token, wait);
    }
  };
}
