/**
 * Step 1, resume: a create answered for an attempt that stopped before writing the answer on its
 * job, or sent by this row's earlier attempt and never answered.
 */
import type { Context } from '../context.js';
import {
  adoptAnswer,
  type RowRun,
  SENDER_WAITS,
  type Step,
  unknownOutcome,
  waitOrReview,
} from './row-run.js';

export async function resumeAnswer(ctx: Context, run: RowRun): Promise<Step> {
  if (run.state.orderId !== undefined) return 'next';
  const known = await ctx.store.createOf(run.data.sheetId, run.data.row);
  if (known.kind === 'answered') {
    await adoptAnswer(ctx, run, known);
  } else if (known.kind === 'sent' && run.state.intent !== undefined) {
    // Sent by this row's earlier attempt and never answered: give a live sender (a stall that
    // was not a death) a moment to record its answer, then it is unknown.
    if (run.state.waits < SENDER_WAITS)
      return waitOrReview(run, 'the create sent earlier has no recorded answer');
    return unknownOutcome(
      ctx,
      run,
      run.state.intent.sentAt,
      'none recorded: the attempt that sent it stopped',
    );
  }
  return 'next';
}
