/**
 * The reconciler, a repeating job. It catches what a lost signal would leave behind:
 * - a sheet whose rows are all final but whose report was never queued;
 * - a row or sheet job BullMQ gave up on while no worker was there to hear it (the row gets its
 *   status all the same, the job is then removed from the failed set).
 */
import type { Job } from 'bullmq';

import { closeSheetEarly, type GiveUpDeps, settleGivenUpRow } from '../src/rows/give-up.js';

export interface ReconcileDeps extends GiveUpDeps {
  /** Whether a sheet is of this worker's connection (another's is reconciled by its own workers). */
  ownsSheet(sheetId: string): Promise<boolean>;
  failedRows(start: number, end: number): Promise<Job[]>;
  failedSheets(start: number, end: number): Promise<Job[]>;
}

const PAGE = 500;

export function reconcileProcessor(deps: ReconcileDeps) {
  return async (_job: Job): Promise<number> => {
    let settled = 0;
    for (let start = 0; ; start += PAGE) {
      const failed = await deps.failedRows(start, start + PAGE - 1);
      for (const job of failed) {
        await settleGivenUpRow(job.data, job.attemptsStarted, job.failedReason || 'failed', deps);
        settled += 1;
      }
      if (failed.length < PAGE) break;
    }
    for (const job of await deps.failedSheets(0, PAGE - 1)) {
      const sheetId = (job.data as { sheetId?: unknown }).sheetId;
      if (typeof sheetId === 'string') {
        await closeSheetEarly(
          sheetId,
          `the sheet job gave up: ${job.failedReason || 'failed'}`,
          deps,
        );
      }
    }
    for (const sheetId of await deps.store.activeSheets()) {
      if ((await deps.store.reportOverdue(sheetId)) && (await deps.ownsSheet(sheetId))) {
        await deps.queueReport(sheetId);
        settled += 1;
      }
    }
    return settled;
  };
}
