/**
 * Stopping a process. A graceful stop lets the requests in flight finish, but a job that is only
 * waiting (for its turn at the API, for rows to drain) should not hold the stop up: it goes back
 * to its queue as it is, no attempt spent, and another worker (or this one, restarted) goes on.
 */
import { AbortedError } from './api/errors.js';
import { NotYet } from './errors.js';

export interface StopSignals {
  /** Aborted when a graceful stop begins: waiting stops, requests in flight go on. */
  stopping?: AbortSignal;
  /** Aborted to stop at once: requests in flight are abandoned too. */
  signal?: AbortSignal;
}

/**
 * Runs a wait that sends nothing (a sleep, a turn at the API) so that a stop ends it: with
 * NotYet ('process.stopping') on a graceful stop, AbortedError on an immediate one.
 */
export async function interruptibleWait<T>(
  wait: (signal: AbortSignal | undefined) => Promise<T>,
  { stopping, signal }: StopSignals,
): Promise<T> {
  const signals = [stopping, signal].filter((s): s is AbortSignal => s !== undefined);
  try {
    return await wait(signals.length === 0 ? undefined : AbortSignal.any(signals));
  } catch (error) {
    if (signal?.aborted) throw new AbortedError('stopping now', { cause: error });
    if (stopping?.aborted)
      throw new NotYet('process.stopping', 'stopping: back to the queue', { cause: error });
    throw error;
  }
}
