/**
 * The dashboard while Redis is away (docs/design.md "Outages, said once"): it answers within 2 s
 * from what it has. Every read of its sources waits at most `waitMs` (ioredis queues a command
 * while it reconnects, so a read would otherwise wait for Redis to come back); past that, or on
 * an error, the overview last read is answered, and the pages say that Redis does not answer and
 * as of when they show the imports. Kept in memory, per process; nothing else is changed in how
 * the importer's clients talk to Redis.
 */
import type { Logger } from 'pino';

import { NotYet } from '../errors.js';
import type { Words } from '../language/words.js';
import { DASHBOARD_AWAY_WAIT_MS } from '../policy.js';
import type { SheetDetail, SheetProgress } from '../store/progress.js';
import type { OverviewSources } from './overview.js';
import type { RecordedResults } from './sheet-rows.js';

/** Redis not answering the dashboard: since when, and as of when what it shows was read. */
export interface Away {
  since: Date;
  /** When the overview shown was read; undefined: none was read yet. */
  asOf: Date | undefined;
}

/** The sources, bounded, and whether the last read found Redis away. */
export interface KeptSources<T extends OverviewSources> {
  sources: T;
  away(): Away | undefined;
  /** The same bounded reads, for what else the pages read of Redis (kept-agenda.ts). */
  reads: BoundedReads;
}

/** Reads of Redis that share one knowledge of whether it answers. */
export interface BoundedReads {
  /**
   * `work`'s answer within the wait; else what `fallback` kept, Redis then known away; else the
   * error (a NotYet `dashboard.redis-away` past the wait).
   */
  read: <R>(work: () => Promise<R>, fallback: () => R | undefined) => Promise<R>;
  /** How long a read waits now: less once Redis is known away. */
  wait: () => number;
  /** Since when Redis is known away; undefined: its last read answered. */
  since: () => Date | undefined;
}

/** Redis did not answer the dashboard, and nothing was kept to answer with: it may, later. */
export function awayError(message: string, cause?: unknown): NotYet {
  return new NotYet('dashboard.redis-away', message, cause === undefined ? {} : { cause });
}

/** A time of day as the note says it (UTC, the logs' and the reports' time). */
function clockTime(at: Date): string {
  return `${at.toISOString().slice(11, 19)} UTC`;
}

/** The line saying that Redis does not answer, and as of when what is shown was read. */
export function awayLine(words: Words, away: Away): string {
  return words.t('dashboard.redis.away', {
    since: clockTime(away.since),
    asOf: away.asOf === undefined ? 'none' : clockTime(away.asOf),
  });
}

/** `work`, or a rejection once `ms` have passed without its answer. */
export async function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(awayError(`Redis did not answer within ${ms} ms`));
    }, ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Bounded reads: `waitMs` each, DASHBOARD_AWAY_WAIT_MS once Redis is known away. */
export function boundedReads(
  logger: Logger,
  waitMs: number,
  now: () => Date = () => new Date(),
): BoundedReads {
  let since: Date | undefined;
  // Redis known away: a page's further reads wait less, so that the page answers within 2 s.
  const wait = () => (since === undefined ? waitMs : Math.min(waitMs, DASHBOARD_AWAY_WAIT_MS));
  return {
    wait,
    since: () => since,
    read: async (work, fallback) => {
      try {
        const answer = await within(wait(), work());
        since = undefined;
        return answer;
      } catch (error) {
        since ??= now();
        logger.debug({ err: error }, 'the dashboard answers from what it last read');
        const kept = fallback();
        if (kept === undefined) throw error;
        return kept;
      }
    },
  };
}

/** The sources of a dashboard that answers from what it has while Redis is away. */
export function keptSources<T extends OverviewSources>(
  given: T,
  waitMs: number,
  now: () => Date = () => new Date(),
): KeptSources<T> {
  const reads = boundedReads(given.logger, waitMs, now);
  const { read, wait } = reads;
  let last: { sheets: SheetProgress[]; at: Date } | undefined;
  const keptSheet = (sheetId: string): SheetDetail | undefined => {
    const found = last?.sheets.find((s) => s.sheetId === sheetId);
    return found === undefined ? undefined : { ...found, warnings: [] };
  };
  const { sheet, notTaken, results } = given;
  const sources: T = {
    ...given,
    overview: () =>
      read(
        async () => {
          const sheets = await given.overview();
          last = { sheets, at: now() };
          return sheets;
        },
        () => last?.sheets,
      ),
    // Not kept: the page says they cannot be read, as it does for any other error.
    ...(notTaken !== undefined && { notTaken: () => read(notTaken, () => undefined) }),
    ...(sheet !== undefined && {
      sheet: (sheetId: string) =>
        read(
          () => sheet(sheetId),
          // The overview's entry, without its warnings: what the page can show of it.
          () => keptSheet(sheetId),
        ),
    }),
    ...(results !== undefined && { results: boundedResults(results, wait) }),
    away: () => {
      const since = reads.since();
      return since === undefined ? undefined : { since, asOf: last?.at };
    },
  };
  return { sources, away: () => sources.away?.(), reads };
}

/** The rows of a sheet still running: an error past `waitMs`, which its page shows as such. */
function boundedResults(results: RecordedResults, wait: () => number): RecordedResults {
  return {
    outcomes: (...args) => within(wait(), results.outcomes(...args)),
    scanOutcomes: (...args) => within(wait(), results.scanOutcomes(...args)),
  };
}
