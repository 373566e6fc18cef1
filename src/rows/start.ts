/**
 * Steps 1 and 2, up to a create to send: what is stored of the row (an answer an earlier attempt
 * recorded, a create sent and never answered), its key in the ledger (imported before?), and the
 * claim that makes the create this attempt's alone. When the API's pace has a turn free at once,
 * all of it is one round trip to Redis (row-progress.ts); else the claim follows the wait.
 */
import type { Context } from '../context.js';
import type { Claim } from '../store/ledger.js';
import type { Progress } from '../store/row-progress.js';
import { newClaim, type SendClaim, sendCreate } from './create.js';
import {
  adoptAnswer,
  apiTurn,
  type RowRun,
  type Step,
  unknownOutcome,
  waitOrReview,
} from './row-run.js';
import { SENDER_WAITS } from '../policy.js';

export async function startRow(ctx: Context, run: RowRun): Promise<Step> {
  if (run.state.orderId !== undefined) {
    // The order exists already (dropped back from failed/, or an older version's job).
    const begun = await ctx.progress.begin(run.me, { key: null });
    if (begun.kind === 'final') return 'final';
    if (begun.kind === 'progress' && begun.progress.kind === 'answered') run.adopt(begun.progress);
    return 'next';
  }
  // A turn at the API free at once is taken now: the create is claimed with the rest, and sent.
  const claim = ctx.pace.takeFreeTurn() ? newClaim(ctx, run) : undefined;
  const begun = await ctx.progress.begin(run.me, { key: run.data.key, claim: claim?.entry });
  switch (begun.kind) {
    case 'final':
      return 'final';
    case 'progress':
      return resume(ctx, run, begun.progress, claim);
    case 'ledger': {
      const verdict = await ctx.ledger.verdict(begun.entry, run.me);
      return verdict.kind === 'mine' ? claimAfterTurn(ctx, run) : ledgerSays(run, verdict);
    }
    case 'claimed':
      return sendCreate(ctx, run, claim as SendClaim);
    case 'free':
      return claimAfterTurn(ctx, run);
  }
}

/** Waits for the API's pace, then claims the create (unless another attempt did meanwhile). */
async function claimAfterTurn(ctx: Context, run: RowRun): Promise<Step> {
  await apiTurn(ctx);
  const claim = newClaim(ctx, run);
  const held = await ctx.progress.claim(run.me, claim.entry);
  return held === undefined ? sendCreate(ctx, run, claim) : resume(ctx, run, held, claim);
}

/** Goes on from what is stored of the row's create. */
async function resume(
  ctx: Context,
  run: RowRun,
  progress: Progress,
  claim: SendClaim | undefined,
): Promise<Step> {
  if (progress.kind === 'none') return claimAfterTurn(ctx, run);
  if (progress.kind === 'answered') {
    await adoptAnswer(ctx, run, progress);
    return 'next';
  }
  // This attempt's own claim, its reply lost to a Redis restart and sent again.
  if (progress.claim === claim?.entry) return sendCreate(ctx, run, claim);
  // Sent by an earlier attempt or by another worker now, never answered: give a live sender (a
  // stall that was not a death) a moment to record its answer, then it is unknown.
  if (run.state.waits < SENDER_WAITS)
    return waitOrReview(run, 'a create sent for this row has no recorded answer');
  return unknownOutcome(
    ctx,
    run,
    progress.sentAt ?? run.state.intent?.sentAt ?? 'an unknown time',
    'none recorded: the attempt that sent it stopped or never heard back',
  );
}

/** The ledger holds the row's key elsewhere: a duplicate, a person's call, or a wait. */
async function ledgerSays(run: RowRun, claim: Exclude<Claim, { kind: 'mine' }>): Promise<Step> {
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
  }
}
