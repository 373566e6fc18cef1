/**
 * The notifications told of sheets, as the notify queue keeps them once they are finished (the
 * last thousand delivered, the last few thousand given up): their bodies hold what the event said,
 * an order's address and its inspectors among it. Retention (app/retention.ts) removes a purged
 * sheet's with it; one not yet delivered is left to be told.
 */
import type { Job, Queue } from 'bullmq';

/** Finished notify jobs read at once. */
const PAGE = 500;

/** The sheet a notification's body is about (`sheetId`, or its summary's); undefined if none. */
export function sheetOfBody(body: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (error) {
    // A body this version did not write names no sheet of its: left as it is.
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { sheetId, summary } = parsed as { sheetId?: unknown; summary?: { sheetId?: unknown } };
  if (typeof sheetId === 'string') return sheetId;
  return typeof summary?.sheetId === 'string' ? summary.sheetId : undefined;
}

/** The finished (delivered or given up) notify jobs of these sheets: sheet id → job ids. */
export async function finishedNotificationsOf(
  queue: Queue,
  sheetIds: ReadonlySet<string>,
): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  if (sheetIds.size === 0) return found;
  for (let start = 0; ; start += PAGE) {
    const jobs: Job[] = await queue.getJobs(['completed', 'failed'], start, start + PAGE - 1);
    for (const job of jobs) {
      const body = (job.data as { body?: unknown } | undefined)?.body;
      const sheetId = typeof body === 'string' ? sheetOfBody(body) : undefined;
      if (sheetId === undefined || job.id === undefined || !sheetIds.has(sheetId)) continue;
      found.set(sheetId, [...(found.get(sheetId) ?? []), job.id]);
    }
    if (jobs.length < PAGE) return found;
  }
}

/** Removes these finished notify jobs; how many there were. A job removed meanwhile counts none. */
export async function forgetNotifications(
  queue: Queue,
  jobIds: readonly string[],
): Promise<number> {
  let removed = 0;
  for (const jobId of jobIds) removed += await queue.remove(jobId);
  return removed;
}
