/**
 * Waiting for a queue to be worked through: how a test shows that something did not happen
 * (a second delivery, a second sheet) without sleeping on a guess. Once every job queued so far
 * has run, whatever they were going to do is done; then the test counts.
 */
import type { JobType, Queue } from 'bullmq';
import { setTimeout as sleep } from 'node:timers/promises';

/** The states of a job not yet run to its end (a retry waits as `delayed`). */
const PENDING: JobType[] = ['waiting', 'active', 'delayed', 'prioritized', 'waiting-children'];

/** Resolves once `queue` holds no job waiting, delayed or running; fails after `timeoutMs`. */
export async function drained(queue: Queue, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const counts = await queue.getJobCounts(...PENDING);
    if (Object.values(counts).every((n) => n === 0)) return;
    if (Date.now() > deadline) {
      throw new Error(`queue ${queue.name} not drained in time: ${JSON.stringify(counts)}`);
    }
    await sleep(50);
  }
}
