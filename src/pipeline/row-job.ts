/**
 * The row job: a small state machine whose every step is stored on the job before the next one
 * (DESIGN §3): intent → order created (id, inspections) → file k uploaded (id) … → done. A job
 * that runs again — retried, resumed after a crash, handed over after a stall — goes on from the
 * last recorded step and never sends a create whose outcome it does not know.
 */
import type { Logger } from 'pino';
import { z } from 'zod';

import type { ApiClient } from '../api/client.js';
import { AbortedError, ApiError } from '../api/errors.js';
import { rowJobId } from './keys.js';
import type { Ledger } from './ledger.js';
import type { ApiPace } from './pace.js';
import type { RowOutcome } from './results.js';

export const rowStateSchema = z.object({
  /** Set just before the create is sent; cleared when its answer is recorded. */
  intent: z.object({ sentAt: z.string(), attempt: z.number().int() }).optional(),
  orderId: z.number().int().optional(),
  inspectionIds: z.array(z.number().int()).optional(),
  /** By attachment position; null until that file's upload has an id. */
  fileIds: z.array(z.number().int().nullable()).default([]),
  /** Attachments sent again after an unclear answer: they may be on the order twice. */
  resent: z.array(z.number().int()).default([]),
});
export type RowState = z.infer<typeof rowStateSchema>;

export const rowJobSchema = z.object({
  sheetId: z.string(),
  row: z.number().int().positive(),
  /** Ledger key; null when duplicates are allowed (or the order already exists). */
  key: z.string().nullable(),
  /** The order to create, as validated. */
  order: z.record(z.string(), z.unknown()),
  attachments: z.array(z.object({ path: z.string(), absolute: z.string(), bytes: z.number() })),
  /** The order exists already (a row dropped back from failed/): only its files are sent. */
  existingOrderId: z.number().int().optional(),
  state: rowStateSchema.default({ fileIds: [], resent: [] }),
});
export type RowJobData = z.input<typeof rowJobSchema>;

/** What the row job needs of its BullMQ job. */
export interface RowJobHandle {
  data: unknown;
  attemptsStarted: number;
  /** Failed attempts before this one. */
  attemptsMade: number;
  /** Attempts allowed in all. */
  maxAttempts: number;
  updateData(data: RowJobData): Promise<void>;
}

/** Ways out of a row job that are not a result: BullMQ control flow, raised by the processor. */
export type RowInterrupt =
  /** Wait this long, then try again (another row holds the same ledger key). */
  | { kind: 'delay'; ms: number }
  /** Every request must wait (429/503 Retry-After); the job goes back to the queue untouched. */
  | { kind: 'rate-limit'; ms: number }
  /** The import cannot go on for any row (token refused, API misconfigured). */
  | { kind: 'stop'; reason: string };

export class RowInterruption extends Error {
  override name = 'RowInterruption';

  constructor(readonly interrupt: RowInterrupt) {
    super(
      interrupt.kind === 'stop' ? interrupt.reason : `row job ${interrupt.kind} ${interrupt.ms} ms`,
    );
  }
}

export interface RowJobDeps {
  api: ApiClient;
  ledger: Ledger;
  pace: ApiPace;
  /** Records the row's final result (once; later calls for the same row do nothing). */
  finish(sheetId: string, row: number, outcome: RowOutcome): Promise<void>;
  isFinal(sheetId: string, row: number): Promise<boolean>;
  logger: Logger;
  now: () => number;
  signal: AbortSignal;
}

/** Runs one row to its final status, or throws to be retried or interrupted. */
export async function runRowJob(job: RowJobHandle, deps: RowJobDeps): Promise<void> {
  const data = rowJobSchema.parse(job.data);
  const { sheetId, row, key } = data;
  const me = { sheetId, row };
  const log = deps.logger.child({ sheetId, row, jobId: rowJobId(sheetId, row) });
  if (await deps.isFinal(sheetId, row)) return;

  let state: RowState =
    data.existingOrderId !== undefined && data.state.orderId === undefined
      ? { ...data.state, orderId: data.existingOrderId }
      : data.state;
  const save = async (next: RowState) => {
    state = next;
    await job.updateData({ ...data, state });
  };
  const finish = (outcome: Omit<RowOutcome, 'attempts'>) =>
    deps.finish(sheetId, row, { ...outcome, attempts: job.attemptsStarted });
  const lastAttempt = job.attemptsMade + 1 >= job.maxAttempts;

  // 1. Has this row (by reference or content) become an order before?
  if (key !== null && state.orderId === undefined && state.intent === undefined) {
    const claim = await deps.ledger.claim(key, me);
    if (claim.kind === 'duplicate') {
      return finish({
        status: 'duplicate',
        orderId: claim.orderId,
        error: `already imported as order ${claim.orderId} (sheet ${claim.sheetId}, row ${claim.row}).`,
      });
    }
    if (claim.kind === 'unknown') {
      return finish({
        status: 'needs-review',
        error: `an earlier import of this row (sheet ${claim.sheetId}, row ${claim.row}) has an unknown outcome: check whether that order exists before importing the row again.`,
      });
    }
    if (claim.kind === 'busy') throw new RowInterruption({ kind: 'delay', ms: 2000 });
  }

  // 2. The create: at most once, and never again when its outcome is unknown.
  if (state.orderId === undefined) {
    if (state.intent !== undefined) {
      // Sent before, and the answer was never recorded (a crash, a stall): it may exist.
      if (key !== null) await deps.ledger.markUnknown(key, me);
      return finish({
        status: 'needs-review',
        error: needsReviewText(
          state.intent.sentAt,
          'no answer was recorded (the worker stopped while waiting for it)',
        ),
        review: { sentAt: state.intent.sentAt, answer: 'none recorded: the worker stopped' },
      });
    }
    await deps.pace.turn(deps.signal);
    const sentAt = new Date(deps.now()).toISOString();
    await save({ ...state, intent: { sentAt, attempt: job.attemptsStarted } });
    let created;
    try {
      created = await deps.api.createOrder(data.order, deps.signal);
    } catch (error) {
      return handleCreateError(error);
    }
    await save({
      ...state,
      intent: undefined,
      orderId: created.id,
      inspectionIds: created.inspections.map((i) => i.id),
      fileIds: data.attachments.map(() => null),
    });
    if (key !== null) await deps.ledger.confirm(key, me, created.id);
    log.info({ orderId: created.id }, 'order created');
  }
  const orderId = state.orderId as number;

  // 3. Each attachment, once it has an id it is never sent again.
  const fileIds = data.attachments.map((_, k) => state.fileIds[k] ?? null);
  const refused: string[] = [];
  for (const [k, attachment] of data.attachments.entries()) {
    if (fileIds[k] !== null) continue;
    try {
      await deps.pace.turn(deps.signal);
      fileIds[k] = await deps.api.uploadFile(
        orderId,
        { absolute: attachment.absolute },
        deps.signal,
      );
      await save({ ...state, fileIds: [...fileIds] });
    } catch (error) {
      if (error instanceof ApiError && error.kind === 'permanent') {
        refused.push(`${attachment.path}: ${error.message}`);
        continue;
      }
      if (error instanceof ApiError && error.kind === 'ambiguous') {
        // Sent again on the next attempt: a file twice is a lesser harm than a file missing.
        await save({ ...state, fileIds: [...fileIds], resent: [...new Set([...state.resent, k])] });
      }
      if (
        lastAttempt &&
        error instanceof ApiError &&
        (error.kind === 'ambiguous' || error.kind === 'retryable')
      ) {
        refused.push(`${attachment.path}: ${error.message} (no more retries)`);
        continue;
      }
      throw interruptionFor(error) ?? error;
    }
  }

  const missing = data.attachments.filter((_, k) => fileIds[k] === null).map((a) => a.path);
  const resentNote = state.resent
    .filter((k) => fileIds[k] !== null)
    .map((k) => data.attachments[k]?.path)
    .filter((p): p is string => p !== undefined);
  const done = {
    orderId,
    inspectionIds: state.inspectionIds ?? [],
    fileIds,
  };
  if (missing.length > 0) {
    return finish({
      status: 'failed',
      ...done,
      missingFiles: missing,
      error: `order ${orderId} exists, but ${missing.length} of its files could not be attached: ${refused.join('; ')}. Drop the row back from failed/ to attach them to the same order.`,
    });
  }
  return finish({
    status: 'created',
    ...done,
    ...(resentNote.length > 0 && {
      error: `sent again after an unclear answer, so possibly attached twice: ${resentNote.join(', ')}.`,
    }),
  });

  async function handleCreateError(error: unknown): Promise<void> {
    if (error instanceof AbortedError) throw error; // shutting down: the intent stays, as it should
    if (!(error instanceof ApiError)) throw error;
    const cleared = { ...state, intent: undefined };
    switch (error.kind) {
      case 'permanent':
        await save(cleared);
        if (key !== null) await deps.ledger.release(key, me);
        return finish({
          status: 'failed',
          error: `the API refused the order: ${error.message}`,
          ...(error.details.fieldErrors && { fieldErrors: error.details.fieldErrors }),
        });
      case 'ambiguous': {
        const sentAt = state.intent?.sentAt ?? new Date(deps.now()).toISOString();
        if (key !== null) await deps.ledger.markUnknown(key, me);
        return finish({
          status: 'needs-review',
          error: needsReviewText(sentAt, error.message),
          review: { sentAt, answer: error.message },
        });
      }
      case 'retryable':
      case 'auth':
      case 'config':
        // Nothing was done on the server: the create may be sent again.
        await save(cleared);
        if (error.kind === 'retryable' && lastAttempt && error.details.retryAfterMs === undefined) {
          if (key !== null) await deps.ledger.release(key, me);
          return finish({ status: 'failed', error: `no more retries: ${error.message}` });
        }
        throw interruptionFor(error) ?? error;
    }
  }
}

/** The BullMQ-level interruption an API error calls for, if any. */
function interruptionFor(error: unknown): RowInterruption | undefined {
  if (!(error instanceof ApiError)) return undefined;
  if (error.kind === 'auth') {
    return new RowInterruption({
      kind: 'stop',
      reason: `the API refused the token (${error.details.status ?? ''} ${error.message}): check API_TOKEN / API_TOKEN_FILE. The import is paused; nothing more is sent.`,
    });
  }
  if (error.kind === 'config') return new RowInterruption({ kind: 'stop', reason: error.message });
  if (error.kind === 'retryable' && error.details.retryAfterMs !== undefined) {
    return new RowInterruption({
      kind: 'rate-limit',
      ms: Math.max(error.details.retryAfterMs, 1000),
    });
  }
  return undefined;
}

function needsReviewText(sentAt: string, answer: string): string {
  return `the order was sent at ${sentAt} but its outcome is unknown (${answer}). It may or may not exist: look for it at the inspection company (or in the API) before importing this row again; importing it blindly could create it twice.`;
}
