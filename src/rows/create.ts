/**
 * Step 3, create: sent by one attempt at most, and never again when its outcome is unknown. The
 * claim — which only one attempt anywhere can hold, and which says when the create left — is
 * stored before the request goes out (start.ts); the answer replaces it the moment it comes back,
 * with the ledger's entry of the order in the same step.
 */
import type { Context } from '../context.js';
import { AbortedError, ApiError } from '../api/errors.js';
import { sentEntry } from '../store/row-progress.js';
import { interruptionFor } from './interruption.js';
import { type RowRun, type Step, unknownOutcome } from './row-run.js';

/** A claim on a row's create: when it leaves, and its entry in the row's progress. */
export interface SendClaim {
  sentAt: string;
  entry: string;
}

/** A claim of this attempt's own (its token is never given twice). */
export function newClaim(ctx: Context, run: RowRun): SendClaim {
  const sentAt = new Date(ctx.now()).toISOString();
  return { sentAt, entry: sentEntry(ctx.progress.token(run.job.attemptsStarted), sentAt) };
}

/** Sends the create this attempt holds the claim of, and records its answer at once. */
export async function sendCreate(ctx: Context, run: RowRun, claim: SendClaim): Promise<Step> {
  const { key } = run.data;
  if (key !== null) await logSent(ctx, run, claim, key);
  let created;
  try {
    created = await ctx.api.createOrder(run.data.order, ctx.stop.now.signal);
  } catch (error) {
    return createFailed(ctx, run, error, claim);
  }
  // On disk first: a Redis that comes back empty takes the answer below with it.
  if (key !== null) await ctx.createsLog.answered(run.me.sheetId, run.me.row, created.id);
  const { attachments } = run.data;
  const order = {
    orderId: created.id,
    inspectionIds: created.inspections.map((i) => i.id),
    fileIds: attachments.map(() => null),
    resent: [],
    // No file is marked as on its way here: it is marked once it has its turn (upload.ts).
  };
  await ctx.progress.answered(run.me, order, run.data.key); // first: survives anything
  run.adopt({ kind: 'answered', ...order });
  run.interrupted = undefined;
  // At debug: a line per row is what a big sheet cannot afford at the default level (the report
  // says it). The row's own logger is made only for a line that is written.
  if (ctx.logger.isLevelEnabled('debug')) run.log.debug({ orderId: created.id }, 'order created');
  return 'next';
}

/** The create's intent on disk (store/creates-log.ts); not written, the create is not sent. */
async function logSent(ctx: Context, run: RowRun, claim: SendClaim, key: string): Promise<void> {
  const { sheetId, row } = run.me;
  const sent = { connectionId: ctx.connection.id, sheetId, row, key, sentAt: claim.sentAt };
  try {
    await ctx.createsLog.sent(sent);
  } catch (error) {
    await ctx.progress.unclaim(run.me, claim.entry);
    throw error;
  }
}

/**
 * A create that came back with an error: refused (the row fails), unclear (it may exist: left
 * to a person), or not done at all (the claim is given back and the create may be sent again).
 */
async function createFailed(
  ctx: Context,
  run: RowRun,
  error: unknown,
  claim: SendClaim,
): Promise<Step> {
  if (error instanceof AbortedError) throw error; // shutting down: the claim stays, as it should
  if (!(error instanceof ApiError)) throw error;
  if (error.kind === 'ambiguous') return unknownOutcome(ctx, run, claim.sentAt, error.message);
  // Nothing was done on the server: the create may be sent again.
  const { key } = run.data;
  await ctx.progress.unclaim(run.me, claim.entry);
  if (key !== null) await ctx.createsLog.released(run.me.sheetId, run.me.row);
  if (error.kind === 'permanent') {
    if (key !== null) await ctx.ledger.release(key, run.me);
    return run.finish({
      status: 'failed',
      error: run.words.t('rows.outcome.refused', { reason: error.message }),
      ...(error.details.fieldErrors && { fieldErrors: error.details.fieldErrors }),
    });
  }
  if (error.kind === 'retryable' && run.lastAttempt && error.details.retryAfterMs === undefined) {
    if (key !== null) await ctx.ledger.release(key, run.me);
    const failed = run.words.t('rows.outcome.noMoreRetries', { reason: error.message });
    return run.finish({ status: 'failed', error: failed });
  }
  throw interruptionFor(error) ?? error;
}
