/**
 * Migration 2: a row job queued by a version before "one record per row" may carry that
 * version's progress in its data (`state`: the create's intent, the order, each file's id). It
 * moves into the row's progress entry (row-progress.ts), in the form this version writes, and
 * `state` leaves the job's data: afterwards a row's progress is read from Redis only.
 *
 * The entry written says what the row's reader said of the two before (a recorded answer wins;
 * else the order the job kept; else a create sent — an intent with no answer stays a create sent,
 * so it is never sent again; else nothing). The waits an older version counted on the job are
 * dropped, as they were ignored.
 *
 * Every job of every connection's rows queue is looked at, whatever its state: waiting, paused,
 * prioritized, delayed, failed, waiting for children, and active. An active job at this point
 * belongs to a process of the older version that stopped (every one is stopped before the first
 * of this version starts: docs/operations.md, Upgrades); its lock lapses, BullMQ hands it back,
 * and a worker of this version then reads what was moved here.
 *
 * Each job is one script (CHANGE): its data is rewritten, and its row's entry with it, only if
 * both are still what was read; else they are read again. Two processes migrating together
 * therefore apply it once, and a job migrated already has no `state` left to move.
 */
import { z } from 'zod';

import { queueNames } from '../keys.js';
import {
  decodeProgress,
  encodeProgress,
  type OrderProgress,
  type Progress,
} from '../row-progress.js';
import { MIGRATION_JOB_TRIES } from '../../policy.js';
import type { Migration, MigrationParts } from './migrations.js';

/** Jobs read per round trip. */
const BATCH = 200;

/** The progress an older version kept on the job (row-data.ts before this migration). */
const olderStateSchema = z.object({
  intent: z.object({ sentAt: z.string(), attempt: z.number().int() }).optional(),
  orderId: z.number().int().optional(),
  inspectionIds: z.array(z.number().int()).optional(),
  fileIds: z.array(z.number().int().nullable()).default([]),
  resent: z.array(z.number().int()).default([]),
  uploading: z.number().int().optional(),
});
type OlderState = z.output<typeof olderStateSchema>;

/** What of a row job this migration reads. */
const olderJobSchema = z.object({
  sheetId: z.string(),
  row: z.number().int().positive(),
  existingOrderId: z.number().int().optional(),
  state: olderStateSchema,
});

/**
 * KEYS: the job, its sheet's creates, its sheet's final rows, its sheet's record. ARGV: the data
 * read, the data without `state`, the row, its entry read ('' for none), the entry to write (''
 * to keep it). 0 when the job or the entry changed since read (read them again), 1 when done. A
 * row final, or of a sheet reported, gets no entry (its job does nothing but end).
 */
const CHANGE = `
if redis.call('HGET', KEYS[1], 'data') ~= ARGV[1] then return 0 end
if ARGV[5] ~= '' and redis.call('SISMEMBER', KEYS[3], ARGV[3]) == 0
    and redis.call('HEXISTS', KEYS[4], 'reportDir') == 0 then
  if (redis.call('HGET', KEYS[2], ARGV[3]) or '') ~= ARGV[4] then return 0 end
  redis.call('HSET', KEYS[2], ARGV[3], ARGV[5])
end
redis.call('HSET', KEYS[1], 'data', ARGV[2])
return 1
`;

/**
 * The entry that says of the row what its older job and its entry said together; undefined when
 * the entry as it is says it already. `existingOrderId`: the order a row dropped back from
 * failed/ was queued for.
 */
export function movedEntry(
  state: OlderState,
  existingOrderId: number | undefined,
  progress: Progress,
): string | undefined {
  if (progress.kind === 'answered') {
    // An older version's answer kept no files: they are on the job, if it is the same order.
    const same = (state.orderId ?? existingOrderId) === progress.orderId;
    if (!same || (progress.fileIds !== undefined && progress.resent !== undefined))
      return undefined;
    const { uploading } = progress;
    return encodeProgress({
      orderId: progress.orderId,
      inspectionIds: progress.inspectionIds,
      fileIds: progress.fileIds ?? state.fileIds,
      resent: progress.resent ?? state.resent,
      ...(uploading !== undefined && { uploading }),
    });
  }
  const orderId = state.orderId ?? existingOrderId;
  if (orderId !== undefined) {
    const order: OrderProgress = {
      orderId,
      inspectionIds: state.inspectionIds ?? [],
      fileIds: state.fileIds,
      resent: state.resent,
      ...(state.uploading !== undefined && { uploading: state.uploading }),
    };
    return encodeProgress(order);
  }
  const sentAt = state.intent?.sentAt;
  if (sentAt === undefined) return undefined;
  // A claim of an older version that did not say when: it says so now. A claim no attempt holds
  // otherwise: an older attempt's, so that no attempt of this version takes it for its own.
  if (progress.kind === 'sent')
    return progress.sentAt === undefined ? `${progress.claim}|${sentAt}` : undefined;
  return `sent|older.${state.intent?.attempt ?? 0}|${sentAt}`;
}

/** Moves one job's `state`, if it has one; whether it did. */
async function moveJob(parts: MigrationParts, jobKey: string): Promise<boolean> {
  const { redis, keys } = parts;
  for (let tries = 0; tries < MIGRATION_JOB_TRIES; tries++) {
    const data = await redis.hget(jobKey, 'data');
    // Most jobs have none: they are not parsed.
    if (data === null || !data.includes('"state"')) return false;
    const raw = parsed(data);
    const job = olderJobSchema.safeParse(raw);
    // Not a row job of an older version (its reader refuses what it cannot read, as before).
    if (!job.success) return false;
    const { sheetId, row, existingOrderId, state } = job.data;
    const held = await redis.hget(keys.creates(sheetId), String(row));
    const entry = movedEntry(state, existingOrderId, decodeProgress(held));
    const { state: _moved, ...input } = raw as Record<string, unknown>;
    const done = await redis.eval(
      CHANGE,
      4,
      jobKey,
      keys.creates(sheetId),
      keys.final(sheetId),
      keys.sheet(sheetId),
      data,
      JSON.stringify(input),
      String(row),
      held ?? '',
      entry ?? '',
    );
    if (done === 1) return true;
  }
  throw new Error(`a row job kept changing while its older progress was moved: ${jobKey}`);
}

/** A job's data, or undefined when it is not JSON (its reader refuses it, as before). */
function parsed(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch (error) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}

/** Every job id of a rows queue, in every state a job waits, runs or has failed in. */
async function jobIds(parts: MigrationParts, queue: string): Promise<string[]> {
  const { redis } = parts;
  const lists = ['active', 'wait', 'paused'].map((list) => redis.lrange(`${queue}:${list}`, 0, -1));
  const sets = ['prioritized', 'delayed', 'failed', 'waiting-children'].map((set) =>
    redis.zrange(`${queue}:${set}`, 0, -1),
  );
  return [...new Set((await Promise.all([...lists, ...sets])).flat())];
}

/** Every rows queue of every connection known here. */
async function run(parts: MigrationParts): Promise<number> {
  const { redis, keys } = parts;
  let moved = 0;
  for (const connectionId of await redis.hkeys(keys.connections)) {
    const queue = `${keys.prefix}:${queueNames(connectionId).rows}`;
    const ids = await jobIds(parts, queue);
    for (let i = 0; i < ids.length; i += BATCH) {
      const page = ids.slice(i, i + BATCH).map((id) => moveJob(parts, `${queue}:${id}`));
      for (const did of await Promise.all(page)) if (did) moved += 1;
    }
  }
  return moved;
}

export const rowStateOnJobs: Migration = {
  id: 2,
  about:
    "row jobs queued by an earlier version keep their progress in the row's entry, not on the job",
  run,
};
