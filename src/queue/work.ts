/**
 * What an office's queues hold for a worker, read in one round trip per office for the doorbell
 * (workers/doorbell.ts), which runs an office's worker only while its queue has work. Read from
 * BullMQ's own keys (6.x): the wait list and the prioritized set (none counted while the queue is
 * paused: its worker would take nothing), the active list (jobs being worked, here or in another
 * process: only a running worker looks for those whose process died, BullMQ's stalled check), and
 * the delayed set's first score, BullMQ's `timestamp × 0x1000 + a counter`.
 */
import type { ChainableCommander, Redis } from 'ioredis';

import type { OfficeQueue } from './queues.js';

/** One queue's work, as the doorbell reads it. */
export interface QueueWork {
  /** Jobs a worker could take now (0 while the queue is paused). */
  ready: number;
  /** Jobs being worked, by some worker of some process. */
  active: number;
  /** When the first delayed job is due (ms since the epoch); undefined: none (or paused). */
  dueAt: number | undefined;
}

/** Keys per queue: wait, prioritized, active, delayed, meta. */
const KEYS_PER_QUEUE = 5;

/** KEYS: five per queue (KEYS_PER_QUEUE). Returns three numbers per queue: ready, active, due. */
const QUEUE_WORK = `
local out = {}
for i = 1, #KEYS, ${KEYS_PER_QUEUE} do
  local paused = redis.call('HEXISTS', KEYS[i + 4], 'paused') == 1
  local ready, due = 0, -1
  if not paused then
    ready = redis.call('LLEN', KEYS[i]) + redis.call('ZCARD', KEYS[i + 1])
    local first = redis.call('ZRANGE', KEYS[i + 3], 0, 0, 'WITHSCORES')
    if first[2] then due = math.floor(tonumber(first[2]) / 4096) end
  end
  out[#out + 1] = ready
  out[#out + 1] = redis.call('LLEN', KEYS[i + 2])
  out[#out + 1] = due
end
return out
`;

type Scripted = ChainableCommander & {
  oiQueueWork(numberOfKeys: number, ...keys: string[]): ChainableCommander;
};
type ScriptedClient = Redis & {
  oiQueueWork(numberOfKeys: number, ...keys: string[]): Promise<unknown>;
};

/**
 * The keys the script reads of `queues`, in its order: made once per office (a look at 500
 * offices would otherwise build 12,500 key names each time).
 */
export function queueWorkKeys(queues: readonly OfficeQueue[]): string[] {
  return queues.flatMap((queue) =>
    ['wait', 'prioritized', 'active', 'delayed', 'meta'].map((type) => queue.toKey(type)),
  );
}

/**
 * Reads the work of each group of queues (an office's, whose keys share its hash tag), given by
 * its keys (queueWorkKeys), in one pipeline: one script call per group. A group whose call failed
 * is undefined.
 */
export async function readQueueWork(
  redis: Redis,
  groups: ReadonlyArray<readonly string[]>,
): Promise<Array<QueueWork[] | undefined>> {
  if (!('oiQueueWork' in redis)) redis.defineCommand('oiQueueWork', { lua: QUEUE_WORK });
  const answers = redis.isCluster
    ? await eachApart(redis as unknown as ScriptedClient, groups)
    : await inOnePipeline(redis, groups);
  return groups.map((keys, g) => {
    const [error, numbers] = answers[g] ?? [new Error('no answer')];
    if (error !== null || !Array.isArray(numbers)) return undefined;
    return Array.from({ length: keys.length / KEYS_PER_QUEUE }, (_, q) => {
      const due = Number(numbers[q * 3 + 2]);
      return {
        ready: Number(numbers[q * 3]),
        active: Number(numbers[q * 3 + 1]),
        dueAt: due < 0 ? undefined : due,
      };
    });
  });
}

/**
 * On a Cluster, each group's call on its own (a pipeline must stay on one node; the client's
 * auto-pipelining still batches the calls of each node), as a pipeline's answers are given.
 */
function eachApart(
  redis: ScriptedClient,
  groups: ReadonlyArray<readonly string[]>,
): Promise<Array<[Error | null, unknown]>> {
  return Promise.all(
    groups.map((keys) =>
      redis.oiQueueWork(keys.length, ...keys).then(
        (numbers): [Error | null, unknown] => [null, numbers],
        (error: unknown): [Error | null, unknown] => [
          error instanceof Error ? error : new Error(String(error)),
          undefined,
        ],
      ),
    ),
  );
}

/** On one server (or a Sentinel set's master), every group's call in one pipeline. */
async function inOnePipeline(
  redis: Redis,
  groups: ReadonlyArray<readonly string[]>,
): Promise<Array<[Error | null, unknown]>> {
  const pipeline = redis.pipeline() as Scripted;
  for (const keys of groups) pipeline.oiQueueWork(keys.length, ...keys);
  return (await pipeline.exec()) ?? [];
}
