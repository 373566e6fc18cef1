/**
 * How `import` queues its sheets and follows them: until all are done, the import is stopped,
 * or it cannot go on (a fatal stop, Redis away past REDIS_WAIT_S, or Redis without the sheets it
 * was given).
 */
import { setTimeout as sleep } from 'node:timers/promises';

import type { ColumnMapping } from '../../orders/columns.js';
import type { SheetProgress } from '../../queue/runtime.js';
import { isRedisUnreachable } from '../../redis/connect.js';
import { redactUrl } from '../../redis/url.js';
import { SheetUnsettledError } from '../../store/sheet-copy.js';
import { CliError, forUser } from '../errors.js';
import type { Importer } from '../importer.js';
import { shortPath } from '../setup.js';
import type { ProgressBars } from './progress-bars.js';

/** Queues each sheet (or finds it queued before); their sheet ids, in order. */
export async function queueSheets(
  importer: Importer,
  paths: readonly string[],
  opts: { allowDuplicates?: boolean; mapping: ColumnMapping | undefined; redisWaitS: number },
  announce: (line: string) => void,
  cwd: string,
): Promise<string[]> {
  const ids: string[] = [];
  for (const path of paths) {
    const queued = importer.pipeline.enqueue(path, {
      allowDuplicates: opts.allowDuplicates ?? false,
      ...(opts.mapping && { mapping: opts.mapping }),
    });
    // Still being written: the user's to wait for, said in one line.
    const { sheetId, resumed } = await unlessRedisGone(
      forUser(queued, SheetUnsettledError),
      importer.pipeline,
      { redisWaitS: opts.redisWaitS, redisUrl: importer.redisUrl },
    );
    announce(`${resumed ? 'Resuming' : 'Queued'} ${shortPath(path, cwd)} as sheet ${sheetId}.`);
    ids.push(sheetId);
  }
  return ids;
}

/** What waitForSheets needs of the pipeline. */
export interface Watched {
  progress(id: string): Promise<SheetProgress | undefined>;
  fatal(): Promise<string | undefined>;
  redisOutage: { readonly since: number | undefined; failed(reason: unknown): void };
}

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
  const pollMs = options.pollMs ?? 300;
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
    if (redisGone(pipeline, options, now)) throw redisGoneError(options);
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
  pipeline: Pick<Watched, 'redisOutage'>,
  options: RedisWait,
): Promise<T> {
  const now = options.now ?? Date.now;
  const done = new AbortController();
  const watchdog = (async (): Promise<never> => {
    for (;;) {
      await sleep(options.pollMs ?? 300, undefined, { signal: done.signal });
      if (redisGone(pipeline, options, now)) throw redisGoneError(options);
    }
  })();
  try {
    return await Promise.race([work, watchdog]);
  } finally {
    done.abort(); // the watchdog's own rejection is handled by the race above
  }
}

function redisGone(
  pipeline: Pick<Watched, 'redisOutage'>,
  options: RedisWait,
  now: () => number,
): boolean {
  const since = pipeline.redisOutage.since;
  return since !== undefined && now() - since >= options.redisWaitS * 1000;
}

/** Redis answers but no longer has a sheet it was given: nothing more will come of it. */
function forgottenError(sheetId: string, options: RedisWait): CliError {
  return new CliError(
    `Redis no longer knows sheet ${sheetId} (${redactUrl(options.redisUrl)}): it came back without its data (keep its AOF on), or the keys were removed. The import stops. Orders it created before are at the API but no longer in the duplicates ledger: check them before importing the sheet again.`,
  );
}

function redisGoneError(options: RedisWait): CliError {
  return new CliError(
    `Redis at ${redactUrl(options.redisUrl)} has not answered for ${options.redisWaitS} s (REDIS_WAIT_S): the import stops. Once Redis is back, run the same import again: it resumes where it stopped.`,
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
