/**
 * Steps 1 and 2, up to a create to send: what is stored of the row (an answer an earlier attempt
 * recorded, a create sent and never answered), its key in the ledger (imported before?), and the
 * claim that makes the create this attempt's alone. When the API's pace has a turn free at once,
 * all of it is one round trip to Redis (row-progress.ts); else the claim follows the wait.
 */
import type { Context } from '../context.js';
import type { Claim } from '../store/ledger.js';
import type { Progress } from '../store/row-progress.js';
import { apiTurn } from './api-turn.js';
import { newClaim, type SendClaim, sendCreate } from './create.js';
import {
  adoptAnswer,
  type RowRun,
  type Step,
  unknownOutcome,
  waitAgain,
  waitOrReview,
} from './row-run.js';
import { SENDER_WAITS } from '../policy.js';

export async function startRow(ctx: Context, run: RowRun): Promise<Step> {
  if (run.record.kind !== 'none') {
    // The job names its order (dropped back from failed/): nothing is claimed; what Redis holds
    // of the row is read.
    const begun = await ctx.progress.begin(run.me, { key: null });
    if (begun.kind === 'final') return 'final';
    return resume(ctx, run, begun.kind === 'progress' ? begun.progress : NOTHING, undefined);
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

const NOTHING: Progress = { kind: 'none' };

/** Goes on from what is stored of the row's create, read with its job (rowRecord). */
async function resume(
  ctx: Context,
  run: RowRun,
  progress: Progress,
  claim: SendClaim | undefined,
): Promise<Step> {
  const record = run.adopt(progress);
  if (record.kind === 'none') return claimAfterTurn(ctx, run);
  if (record.kind === 'order') {
    if (progress.kind === 'answered') await adoptAnswer(ctx, run, progress);
    return 'next';
  }
  // This attempt's own claim, its reply lost to a Redis restart and sent again.
  if (claim !== undefined && record.claim === claim.entry) return sendCreate(ctx, run, claim);
  // Sent by an earlier attempt or by another worker now, never answered: give a live sender (a
  // stall that was not a death) a moment to record its answer, then it is unknown.
  if ((await run.countWait()) <= SENDER_WAITS) throw waitAgain();
  return unknownOutcome(ctx, run, record.sentAt, run.words.t('rows.outcome.noAnswerRecorded'));
}

/** The ledger holds the row's key elsewhere: a duplicate, a person's call, or a wait. */
async function ledgerSays(run: RowRun, claim: Exclude<Claim, { kind: 'mine' }>): Promise<Step> {
  switch (claim.kind) {
    case 'duplicate':
      return run.finish({
        status: 'duplicate',
        orderId: claim.orderId,
        error: run.words.t('rows.outcome.duplicate', {
          ...{ orderId: String(claim.orderId), sheetId: claim.sheetId, row: String(claim.row) },
        }),
      });
    case 'unknown':
      return run.finish({
        status: 'needs-review',
        error: run.words.t('rows.outcome.earlierUnknown', {
          ...{ sheetId: claim.sheetId, row: String(claim.row) },
        }),
      });
    case 'busy':
      return waitOrReview(
        run,
        `another row with the same key (sheet ${claim.sheetId}, row ${claim.row}) is being imported`,
      );
  }
}
