/** The `notify` queue: one job per event and channel (src/notify/). */
import { type Job, UnrecoverableError } from 'bullmq';

import type { Context } from '../src/context.js';
import { deliverNotification, nextTryInMs } from '../src/notify/deliver.js';
import { NotifyError } from '../src/notify/errors.js';
import { notifyJobSchema } from '../src/notify/queue-notification.js';
import { backToQueue } from './back-to-queue.js';

export function notifyProcessor(ctx: Context) {
  return async (job: Job, token?: string): Promise<void> => {
    const data = notifyJobSchema.parse(job.data);
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
