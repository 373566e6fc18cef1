/**
 * The reconciler, a repeating job: a sheet whose rows are all final but whose report was never
 * queued (its last signal lost to a crash) gets its report now.
 */
import type { Job } from 'bullmq';

import type { SheetStore } from '../src/pipeline/sheet-store.js';

export interface ReconcileDeps {
  store: SheetStore;
  queueReport(sheetId: string): Promise<void>;
}

export function reconcileProcessor(deps: ReconcileDeps) {
  return async (_job: Job): Promise<number> => {
    let queued = 0;
    for (const sheetId of await deps.store.activeSheets()) {
      if (await deps.store.reportOverdue(sheetId)) {
        await deps.queueReport(sheetId);
        queued += 1;
      }
    }
    return queued;
  };
}
