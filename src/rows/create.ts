/**
 * Step 3, create: sent by one attempt at most, and never again when its outcome is unknown. The
 * intent is stored on the job before the request goes out; the claim in Redis, which only one
 * attempt anywhere can hold, becomes the answer the moment it comes back.
 */
import { randomBytes } from 'node:crypto';

import type { Context } from '../context.js';
import { AbortedError, ApiError } from '../api/errors.js';
import { interruptionFor } from './interruption.js';
import {
  adoptAnswer,
  apiTurn,
  SENDER_WAITS,
  type RowRun,
  type Step,
  unknownOutcome,
  waitOrReview,
} from './row-run.js';

export async function sendCreate(ctx: Context, run: RowRun): Promise<Step> {
  if (run.state.orderId !== undefined) return 'next';
  const { sheetId, row } = run.data;
  await apiTurn(ctx);
  const token = `${run.job.attemptsStarted}.${randomBytes(6).toString('hex')}`;
  const claim = await ctx.store.claimCreate(sheetId, row, token);
  if (claim.kind === 'answered') {
    await adoptAnswer(ctx, run, claim);
    return 'next';
  }
  if (claim.kind === 'sent') {
    if (run.state.waits < SENDER_WAITS)
      return waitOrReview(run, 'another attempt is sending this row');
    return unknownOutcome(
      ctx,
      run,
      run.state.intent?.sentAt ?? 'an unknown time',
      'sent by another attempt, no answer recorded',
    );
  }
  const sentAt = new Date(ctx.now()).toISOString();
  await run.save({ ...run.state, intent: { sentAt, attempt: run.job.attemptsStarted, token } });
  let created;
  try {
    created = await ctx.api.createOrder(run.data.order, ctx.stop.now.signal);
  } catch (error) {
    return createFailed(ctx, run, error, token);
  }
  const inspectionIds = created.inspections.map((i) => i.id);
  await ctx.store.answerCreate(sheetId, row, created.id, inspectionIds); // first: survives anything
  await adoptAnswer(ctx, run, { kind: 'answered', orderId: created.id, inspectionIds });
  run.log.info({ orderId: created.id }, 'order created');
  return 'next';
}

/**
 * A create that came back with an error: refused (the row fails), unclear (it may exist: left
 * to a person), or not done at all (the claim is given back and the create may be sent again).
 */
async function createFailed(
  ctx: Context,
  run: RowRun,
  error: unknown,
  token: string,
): Promise<Step> {
  if (error instanceof AbortedError) throw error; // shutting down: the intent and claim stay, as they should
  if (!(error instanceof ApiError)) throw error;
  if (error.kind === 'ambiguous') {
    return unknownOutcome(
      ctx,
      run,
      run.state.intent?.sentAt ?? new Date(ctx.now()).toISOString(),
      error.message,
    );
  }
  // Nothing was done on the server: the create may be sent again.
  const { key } = run.data;
  await ctx.store.unclaimCreate(run.data.sheetId, run.data.row, token);
  await run.save({ ...run.state, intent: undefined });
  if (error.kind === 'permanent') {
    if (key !== null) await ctx.ledger.release(key, run.me);
    return run.finish({
      status: 'failed',
      error: `the API refused the order: ${error.message}`,
      ...(error.details.fieldErrors && { fieldErrors: error.details.fieldErrors }),
    });
  }
  if (error.kind === 'retryable' && run.lastAttempt && error.details.retryAfterMs === undefined) {
    if (key !== null) await ctx.ledger.release(key, run.me);
    return run.finish({ status: 'failed', error: `no more retries: ${error.message}` });
  }
  throw interruptionFor(error) ?? error;
}
