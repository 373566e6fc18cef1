/**
 * Waiting for a queue to be worked through: how a test shows that something did not happen
 * (a second delivery, a second sheet) without sleeping on a guess. Once every job queued so far
 * has run, whatever they were going to do is done; then the test counts.
 */
import type { JobType, Queue } from 'bullmq';
import { setTimeout as sleep } from 'node:timers/promises';

/** The states of a job not yet run to its end, but for `delayed` (a retry waits there). */
const PENDING: JobType[] = ['waiting', 'active', 'prioritized', 'waiting-children'];

/**
 * Resolves once `queue` holds no job waiting, running or delayed; fails after `timeoutMs`. The
 * next firing of a repeating schedule (the reconciler's, the status refresh's) is always there,
 * delayed: it is no work queued by the test, and is not waited for.
 */
export async function drained(queue: Queue, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const counts = await queue.getJobCounts(...PENDING);
    const delayed = (await queue.getDelayed()).filter((job) => !job.repeatJobKey);
    if (Object.values(counts).every((n) => n === 0) && delayed.length === 0) return;
    if (Date.now() > deadline) {
      const said = JSON.stringify({ ...counts, delayed: delayed.map((job) => job.id) });
      throw new Error(`queue ${queue.name} not drained in time: ${said}`);
    }
    await sleep(50);
  }
}
