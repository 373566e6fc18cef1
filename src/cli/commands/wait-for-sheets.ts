/**
 * How `import` follows its sheets: until all are done, the import is stopped, or it cannot go on
 * (a fatal stop, Redis away past REDIS_WAIT_S, or Redis without the sheets it was given); then,
 * with its own workers, their `sheet.done` notifications for a bounded time: what is still
 * pending stays queued, and is delivered by the next `watch` or `worker` on the same Redis.
 */
import { setTimeout as sleep } from 'node:timers/promises';

import type { Context } from '../../context.js';
import { pendingNotifications, sheetDoneJobIds } from '../../notify/queue-notification.js';
import { isRedisUnreachable } from '../../redis/connect.js';
import { redactUrl } from '../../redis/url.js';
import type { SheetProgress } from '../../store/progress.js';
import { UserError } from '../../errors.js';
import { type Words, wordsFor } from '../../language/words.js';
import type { ProgressBars } from './progress-bars.js';
import { IMPORT_LOOK_MS, NOTIFICATIONS_WAIT } from '../../policy.js';

/** What waitForSheets needs of the context. */
export interface Watched {
  progress(id: string): Promise<SheetProgress | undefined>;
  fatal(): Promise<string | undefined>;
  redisOutage: RedisOutage;
}

export type RedisOutage = { readonly since: number | undefined; failed(reason: unknown): void };

export interface WaitForSheetsOptions {
  stopped: () => boolean;
  /** REDIS_WAIT_S: how long Redis may be away before the import stops. */
  redisWaitS: number;
  /** For the message (its password is never shown). */
  redisUrl: string;
  now?: () => number;
  pollMs?: number;
}

type Polled =
  | { kind: 'answer'; sheets: SheetProgress[]; fatal?: string; missing?: string }
  | { kind: 'away'; error: unknown }
  | { kind: 'broken'; error: unknown };

/**
 * Follows the sheets until all are done, the import is stopped, or it cannot go on. While Redis
 * is away a look at the sheets waits for it; that wait never keeps a stop (or REDIS_WAIT_S) from
 * being noticed.
 */
export async function waitForSheets(
  ids: readonly string[],
  pipeline: Watched,
  progress: Pick<ProgressBars, 'update'>,
  options: WaitForSheetsOptions,
): Promise<{ sheets: SheetProgress[]; fatal?: string }> {
  const now = options.now ?? Date.now;
  const pollMs = options.pollMs ?? IMPORT_LOOK_MS;
  let sheets: SheetProgress[] = [];
  let asking: Promise<Polled> | undefined;
  for (;;) {
    asking ??= look(ids, pipeline);
    const polled = await Promise.race([asking, sleep(pollMs).then(() => undefined)]);
    if (polled !== undefined) {
      asking = undefined;
      if (polled.kind === 'broken') throw polled.error;
      if (polled.kind === 'away') pipeline.redisOutage.failed(polled.error);
      else {
        if (polled.missing !== undefined) throw forgottenError(polled.missing, options);
        sheets = polled.sheets;
        progress.update(sheets);
        if (polled.fatal !== undefined) return { sheets, fatal: polled.fatal };
        if (sheets.every((s) => s.state === 'done')) return { sheets };
      }
    }
    if (options.stopped()) return { sheets };
    if (redisGone(pipeline.redisOutage, options, now)) throw redisGoneError(options);
    if (polled !== undefined) await sleep(pollMs);
  }
}

type RedisWait = Pick<WaitForSheetsOptions, 'redisWaitS' | 'redisUrl' | 'now' | 'pollMs'>;

/**
 * `work`, unless Redis stays away for REDIS_WAIT_S before it is done: the commands of a client
 * that waits out a Redis restart would otherwise wait for good.
 */
export async function unlessRedisGone<T>(
  work: Promise<T>,
  outage: RedisOutage,
  options: RedisWait,
): Promise<T> {
  const now = options.now ?? Date.now;
  const done = new AbortController();
  const watchdog = (async (): Promise<never> => {
    for (;;) {
      await sleep(options.pollMs ?? IMPORT_LOOK_MS, undefined, { signal: done.signal });
      if (redisGone(outage, options, now)) throw redisGoneError(options);
    }
  })();
  try {
    return await Promise.race([work, watchdog]);
  } finally {
    done.abort(); // the watchdog's own rejection is handled by the race above
  }
}

function redisGone(outage: RedisOutage, options: RedisWait, now: () => number): boolean {
  const since = outage.since;
  return since !== undefined && now() - since >= options.redisWaitS * 1000;
}

/** Redis answers but no longer has a sheet it was given: nothing more will come of it. */
function forgottenError(sheetId: string, options: RedisWait): UserError {
  return new UserError(
    'redis.data-lost',
    `Redis at ${redactUrl(options.redisUrl)} lost its data (sheet ${sheetId} is no longer known: it restarted without AOF, or the keys were removed): the import stops. Creates whose answer was lost are left for review, never sent again. Run \`order-importer ledger rebuild\` before importing again, so that the orders made are duplicates, not second orders.`,
    { values: { url: redactUrl(options.redisUrl), sheetId } },
  );
}

function redisGoneError(options: RedisWait): UserError {
  return new UserError(
    'redis.no-answer',
    `Redis at ${redactUrl(options.redisUrl)} has not answered for ${options.redisWaitS} s (REDIS_WAIT_S): the import stops. Once Redis is back, run the same import again: it resumes where it stopped.`,
    { values: { url: redactUrl(options.redisUrl), seconds: options.redisWaitS } },
  );
}

/** One look at the sheets; it never rejects, so that a look left behind cannot go unhandled. */
async function look(ids: readonly string[], pipeline: Watched): Promise<Polled> {
  try {
    const found = await Promise.all(ids.map((id) => pipeline.progress(id)));
    const sheets = found.filter((s): s is SheetProgress => s !== undefined);
    const missing = ids.find((_, i) => found[i] === undefined);
    const fatal = await pipeline.fatal();
    return {
      kind: 'answer',
      sheets,
      ...(fatal !== undefined && { fatal }),
      ...(missing !== undefined && { missing }),
    };
  } catch (error) {
    return isRedisUnreachable(error) ? { kind: 'away', error } : { kind: 'broken', error };
  }
}

export interface NotificationWait {
  /** How long to wait at most. */
  timeoutMs?: number;
  pollMs?: number;
  stopped?: () => boolean;
  /** The words of the person waiting. @defaultValue English */
  words?: Words;
}

/** Waits for the notifications of these sheets; returns how many are still pending. */
export async function waitForNotifications(
  ctx: Pick<Context, 'queues' | 'settings' | 'connection'>,
  sheetIds: readonly string[],
  announce: (line: string) => void,
  wait: NotificationWait = {},
): Promise<number> {
  const jobIds = sheetIds.flatMap((id) => sheetDoneJobIds(ctx, id));
  return waitForNotificationJobs([{ ctx, jobIds }], announce, wait);
}

/** Notify jobs, each group on its context's queue (one per connection). */
export type NotificationJobs = ReadonlyArray<{
  ctx: Pick<Context, 'queues'>;
  jobIds: readonly string[];
}>;

/** Waits for these notify jobs to be delivered; returns how many are still pending. */
export async function waitForNotificationJobs(
  groups: NotificationJobs,
  announce: (line: string) => void,
  wait: NotificationWait = {},
): Promise<number> {
  let pending = groups.filter((g) => g.jobIds.length > 0);
  if (pending.length === 0) return 0;
  const count = () => pending.reduce((n, g) => n + g.jobIds.length, 0);
  const deadline = Date.now() + (wait.timeoutMs ?? NOTIFICATIONS_WAIT.withinMs);
  let told = false;
  const words = wait.words ?? wordsFor('en');
  while (Date.now() < deadline && !(wait.stopped?.() ?? false)) {
    // A Redis away holds a look up: the deadline is kept all the same.
    const looked = await Promise.race([
      Promise.all(
        pending.map(async (g) => ({
          ctx: g.ctx,
          jobIds: await pendingNotifications(g.ctx, g.jobIds),
        })),
      ),
      sleep(Math.max(0, deadline - Date.now())).then(() => undefined),
    ]);
    if (looked === undefined) break;
    pending = looked.filter((g) => g.jobIds.length > 0);
    if (pending.length === 0) return 0;
    if (!told) announce(words.t('cli.import.notifications-waiting', { count: count() }));
    told = true;
    await sleep(wait.pollMs ?? NOTIFICATIONS_WAIT.everyMs);
  }
  announce(words.t('cli.import.notifications-left', { count: count() }));
  return count();
}
