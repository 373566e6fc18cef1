/**
 * Step 2, ledger: has this row (by reference, or by content) become an order before? The claim
 * taken here holds every other row with the same key back until this one ends.
 */
import type { Context } from '../context.js';
import { type RowRun, type Step, waitOrReview } from './row-run.js';

export async function checkLedger(ctx: Context, run: RowRun): Promise<Step> {
  const { key } = run.data;
  if (key === null || run.state.orderId !== undefined) return 'next';
  const claim = await ctx.ledger.claim(key, run.me);
  switch (claim.kind) {
    case 'duplicate':
      return run.finish({
        status: 'duplicate',
        orderId: claim.orderId,
        error: `already imported as order ${claim.orderId} (sheet ${claim.sheetId}, row ${claim.row}).`,
      });
    case 'unknown':
      return run.finish({
        status: 'needs-review',
        error: `an earlier import of this row (sheet ${claim.sheetId}, row ${claim.row}) has an unknown outcome: check whether that order exists before importing the row again.`,
      });
    case 'busy':
      return waitOrReview(
        run,
        `another row with the same key (sheet ${claim.sheetId}, row ${claim.row}) is being imported`,
      );
    case 'mine':
      return 'next';
  }
}
