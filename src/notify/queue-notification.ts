/**
 * Queues an event's notification: one job of the `notify` queue per configured channel, its id
 * derived from the event's and the channel's, so that queueing the same event again (a report
 * job run twice) is one delivery. Nothing configured: nothing queued.
 */
import { z } from 'zod';

import type { Context, NotifySettings } from '../context.js';
import { EVENT_KINDS, eventBody, eventId, idOf, type NotifyEvent } from './events.js';

export const CHANNELS = ['webhook', 'email'] as const;
export type Channel = (typeof CHANNELS)[number];

/** A notify job's data: the body is made once, so every retry sends (and signs) the same bytes. */
export const notifyJobSchema = z.object({
  channel: z.enum(CHANNELS),
  id: z.string().min(1),
  event: z.enum(EVENT_KINDS),
  body: z.string().min(1),
  /** Attempts that ended in a retry so far: the next wait doubles with each. */
  tries: z.number().int().min(0).default(0),
});
export type NotifyJob = z.output<typeof notifyJobSchema>;

/** The channels these settings deliver to. */
export function channelsOf(notify: NotifySettings | undefined): Channel[] {
  if (notify === undefined) return [];
  return CHANNELS.filter((channel) => notify[channel] !== undefined);
}

/** A notify job's id (BullMQ refuses `:`). */
export function notifyJobId(id: string, channel: Channel): string {
  return `${id}.${channel}`;
}

/** Queues the event for every channel; returns the jobs' ids (none when no channel is set). */
export async function queueNotification(
  ctx: Pick<Context, 'settings' | 'queues' | 'connection' | 'logger'>,
  event: NotifyEvent,
): Promise<string[]> {
  const channels = channelsOf(ctx.settings.notify);
  if (channels.length === 0) return [];
  const id = eventId(event, ctx.connection.id);
  const body = eventBody(event, id, ctx.connection);
  const jobIds = channels.map((channel) => notifyJobId(id, channel));
  await ctx.queues.notify.addBulk(
    channels.map((channel, i) => ({
      name: event.kind,
      data: { channel, id, event: event.kind, body, tries: 0 } satisfies NotifyJob,
      opts: { jobId: jobIds[i] },
    })),
  );
  ctx.logger.debug({ notification: id, event: event.kind, channels }, 'notification queued');
  return jobIds;
}

/** Of these notify jobs, those not delivered yet (waiting, delayed or running). */
export async function pendingNotifications(
  ctx: Pick<Context, 'queues'>,
  jobIds: readonly string[],
): Promise<string[]> {
  const pending: string[] = [];
  for (const jobId of jobIds) {
    const job = await ctx.queues.notify.getJob(jobId);
    // Gone: delivered and trimmed (removeOnComplete).
    if (job === undefined) continue;
    const state = await job.getState();
    if (state !== 'completed' && state !== 'failed' && state !== 'unknown') pending.push(jobId);
  }
  return pending;
}

/** The notify jobs of a sheet's `sheet.done`, for `import` to wait for. */
export function sheetDoneJobIds(
  ctx: Pick<Context, 'settings' | 'connection'>,
  sheetId: string,
): string[] {
  const id = idOf('sheet.done', ctx.connection.id, sheetId);
  return channelsOf(ctx.settings.notify).map((channel) => notifyJobId(id, channel));
}
