/**
 * `watch`'s daily retention pass (docs/design.md "Retention"): at start and then once a day,
 * every sheet of its offices reported more than RETENTION_DAYS ago is purged (retention.ts) and
 * said on the terminal. Several processes of one installation may run `watch` on one Redis: a
 * lock in Redis lets one pass run at a time, and a pass finds nothing left to do once another
 * has run; another installation on the same Redis (another data folder) runs its own pass, under
 * a lock of its own. RETENTION_DAYS=0 keeps everything.
 */
import { randomBytes } from 'node:crypto';

import type { Redis } from 'ioredis';

import { KeyLayout, Keys, type KeySpace } from '../store/keys.js';
import { RETENTION_LOCK_MS, RETENTION_PASS_MS } from '../policy.js';
import { wordsFor } from '../language/words.js';
import { foldersOf, type PurgedSheet, purgeSheets, type PurgeFolders } from './retention.js';
import { purgedLines } from './retention-lines.js';
import type { WatchParts } from './watch-intake.js';
import type { Speech } from '../language/languages.js';

const DAY_MS = 86_400_000;

export interface RetentionPass {
  redis: Redis;
  /** The installation's own keys (QUEUE_PREFIX): its lock. */
  keys: Keys;
  /** Each key space of the offices (store/keys.ts, `KeyLayout`); none: `keys`, for all of them. */
  spaces?: readonly KeySpace[];
  folders: PurgeFolders;
  connectionIds: readonly string[];
  installation: string;
  retentionDays: number;
  language: Speech;
  now: () => number;
  announce: (line: string) => void;
  /** A pass that failed (Redis away): logged, tried again at the next. */
  failed: (error: unknown) => void;
}

/**
 * One pass, now: undefined when another process holds the lock (or retention is off), else the
 * sheets it removed.
 */
export async function retentionPass(pass: RetentionPass): Promise<PurgedSheet[] | undefined> {
  if (pass.retentionDays === 0) return undefined;
  const lock = pass.keys.retentionLock(pass.installation);
  const token = randomBytes(8).toString('hex');
  if ((await pass.redis.set(lock, token, 'PX', RETENTION_LOCK_MS, 'NX')) !== 'OK') return undefined;
  try {
    const before = pass.now() - pass.retentionDays * DAY_MS;
    const words = wordsFor(pass.language);
    let told = false;
    const spaces = pass.spaces ?? [{ keys: pass.keys, offices: [...pass.connectionIds] }];
    return await purgeSheets(
      { redis: pass.redis, spaces },
      pass.folders,
      {
        before,
        connectionIds: pass.connectionIds,
        installation: pass.installation,
        dryRun: false,
      },
      (sheet) => {
        if (!told) {
          told = true;
          const date = words.dateTime(before);
          pass.announce(words.t('cli.retention.pass', { days: pass.retentionDays, before: date }));
        }
        purgedLines(sheet, false, words).forEach(pass.announce);
      },
    );
  } finally {
    // Only its own lock: one that lapsed and was taken by another process stays that one's.
    if ((await pass.redis.get(lock)) === token) await pass.redis.del(lock);
  }
}

/** The pass at start and once a day after; what stops it. */
export function startRetention(pass: RetentionPass): { close(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  const run = () => {
    running = retentionPass(pass).catch(pass.failed);
  };
  run();
  const timer = setInterval(run, RETENTION_PASS_MS);
  return {
    close: async () => {
      clearInterval(timer);
      await running;
    },
  };
}

/** RETENTION_DAYS applied by `watch` at start and once a day, to its own offices. */
export function startRetentionPass(parts: WatchParts): void {
  const { ctx } = parts.importer;
  const connectionIds = parts.importers.map((importer) => importer.connection.id);
  const { queuePrefix } = parts.settings;
  const retention = startRetention({
    redis: ctx.redis,
    keys: new Keys(queuePrefix),
    spaces: KeyLayout.of(queuePrefix, ctx.settings.redis).spaces(connectionIds),
    folders: foldersOf(parts.settings),
    connectionIds,
    installation: ctx.installation.id,
    retentionDays: parts.settings.retentionDays,
    language: parts.settings.language,
    now: ctx.now,
    announce: parts.announce,
    failed: (error) => {
      parts.logger.warn({ err: error }, 'retention pass failed; tried again at the next');
    },
  });
  parts.onStop(() => retention.close());
}
