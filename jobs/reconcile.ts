/**
 * The reconciler's job of versions that ran it as a repeating job on the `reports` queue: the
 * reconciler is now a pass of each working process (src/workers/doorbell.ts), and such a job,
 * queued before its scheduler was removed, runs the same pass for its office. It carries nothing;
 * the stage settles what a lost signal left behind (src/rows/reconcile.ts).
 */
import type { Job } from 'bullmq';

import type { Context } from '../src/context.js';
import { type Reconciled, reconcile } from '../src/rows/reconcile.js';

export function reconcileProcessor(ctx: Context) {
  return async (_job: Job): Promise<Reconciled> => reconcile(ctx);
}
