/**
 * The reconciler's repeating job on the `reports` queue (set in src/workers/start.ts): it carries
 * nothing; the stage settles what a lost signal left behind (src/rows/reconcile.ts).
 */
import type { Job } from 'bullmq';

import type { Context } from '../src/context.js';
import { type Reconciled, reconcile } from '../src/rows/reconcile.js';
import { RECONCILE_EVERY_MS } from '../src/policy.js';

/** How often the reconciler's job repeats (its scheduler, set in src/workers/start.ts). */
export const reconcileRepeat = { every: RECONCILE_EVERY_MS } as const;

export function reconcileProcessor(ctx: Context) {
  return async (_job: Job): Promise<Reconciled> => reconcile(ctx);
}
