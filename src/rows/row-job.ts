/**
 * The row job: a small state machine whose every step is stored before the next one
 * (docs/design.md §3): intent → order created (id, inspections) → file k uploaded (id) … → done. A job
 * that runs again — retried, resumed after a crash, handed over after a stall — goes on from the
 * last recorded step and never sends a create whose outcome it does not know.
 *
 * Two records keep the create safe: the intent on the job (before sending), and a claim in Redis
 * that only one attempt anywhere can hold, which becomes the answer the moment it comes back.
 */
import { randomBytes } from 'node:crypto';
import { basename } from 'node:path';

import type { Logger } from 'pino';
import { z } from 'zod';

import type { ApiClient } from '../api/client.js';
import { AbortedError, ApiError } from '../api/errors.js';
import { AttachmentRefused } from '../orders/open-attachment.js';
import { type AttachmentOpener, attachmentOpener } from './attachment-source.js';
import { recordOutcome } from './outcome.js';
import { type Context, stopSignals } from '../context.js';
import { rowJobId } from '../queue/queues.js';
import type { Ledger } from '../store/ledger.js';
import type { ApiPace } from '../store/pace.js';
import type { RowOutcome } from '../store/results.js';
import type { CreateClaim } from '../store/sheet-store.js';
import { interruptibleWait } from '../stopping.js';

export const rowStateSchema = z.object({
  /** Set just before the create is sent; cleared when its answer is recorded. */
  intent: z
    .object({ sentAt: z.string(), attempt: z.number().int(), token: z.string().optional() })
    .optional(),
  orderId: z.number().int().optional(),
  inspectionIds: z.array(z.number().int()).optional(),
  /** By attachment position; null until that file's upload has an id. */
  fileIds: z.array(z.number().int().nullable()).default([]),
  /** Attachments sent again after an unclear answer: they may be on the order twice. */
  resent: z.array(z.number().int()).default([]),
  /** The attachment being sent now; still set on a resume, it was sent with no answer kept. */
  uploading: z.number().int().optional(),
  /** How often this row has waited for another row or attempt to finish. */
  waits: z.number().int().default(0),
});
export type RowState = z.infer<typeof rowStateSchema>;

export const rowJobSchema = z.object({
  /** The connection whose URL and token alone may send this row. */
  connectionId: z.string().min(1),
  sheetId: z.string(),
  row: z.number().int().positive(),
  line: z.number().int().nullable().default(null),
  reference: z.string().optional(),
  /** Ledger key; null when duplicates are allowed (or the order already exists). */
  key: z.string().nullable(),
  /** The order to create, as validated. */
  order: z.record(z.string(), z.unknown()),
  /** `absolute` (older jobs) is ignored: a file is found again from its sheet's folder. */
  attachments: z.array(
    z.object({ path: z.string(), absolute: z.string().optional(), bytes: z.number() }),
  ),
  /** The order exists already (a row dropped back from failed/): only its files are sent. */
  existingOrderId: z.number().int().optional(),
  state: rowStateSchema.default({ fileIds: [], resent: [], waits: 0 }),
});
export type RowJobData = z.input<typeof rowJobSchema>;

/** A row job of another connection than the worker's (moved or forged in Redis): never sent. */
export class ForeignJobError extends Error {
  override name = 'ForeignJobError';
  readonly retryable = false;
}

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
  /** Wait this long, then try again (another row or attempt holds what this one needs). */
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

/** The per-row create claims (sheet-store.ts). */
export interface CreateClaims {
  claimCreate(sheetId: string, row: number, token: string): Promise<CreateClaim>;
  createOf(sheetId: string, row: number): Promise<CreateClaim>;
  answerCreate(
    sheetId: string,
    row: number,
    orderId: number,
    inspectionIds: readonly number[],
  ): Promise<void>;
  unclaimCreate(sheetId: string, row: number, token: string): Promise<void>;
}

interface RowJobDeps {
  /** The connection `api` is the client of. */
  connectionId: string;
  api: ApiClient;
  ledger: Ledger;
  pace: ApiPace;
  creates: CreateClaims;
  /** Opens a file of the row's sheet, from the sheet's folder (attachment-source.ts). */
  openAttachment: AttachmentOpener;
  /** Records the row's final result (once; later calls for the same row do nothing). */
  finish(sheetId: string, row: number, outcome: RowOutcome): Promise<void>;
  isFinal(sheetId: string, row: number): Promise<boolean>;
  logger: Logger;
  now: () => number;
  signal: AbortSignal;
  /** Aborted when a graceful stop begins (see stopping.ts). */
  stopping?: AbortSignal;
}

/** The context as the row job's steps use it. */
function rowJobDeps(ctx: Context): RowJobDeps {
  return {
    connectionId: ctx.connection.id,
    api: ctx.api,
    ledger: ctx.ledger,
    pace: ctx.pace,
    creates: ctx.store,
    openAttachment: attachmentOpener(ctx.store, ctx.settings.maxAttachmentBytes),
    finish: (sheetId, row, outcome) => recordOutcome(ctx, sheetId, row, outcome),
    isFinal: (sheetId, row) => ctx.store.isFinal(sheetId, row),
    logger: ctx.logger,
    now: ctx.now,
    ...stopSignals(ctx),
  };
}

/** How long to wait for another row or attempt before asking a person: 150 × 2 s. */
const MAX_WAITS = 150;
const WAIT_MS = 2000;

/** Runs one row to its final status, or throws to be retried or interrupted. */
export async function runRowJob(ctx: Context, job: RowJobHandle): Promise<void> {
  const deps = rowJobDeps(ctx);
  const data = rowJobSchema.parse(job.data);
  const { sheetId, row, key } = data;
  if (data.connectionId !== deps.connectionId) {
    throw new ForeignJobError(
      `row ${row} of sheet ${sheetId} belongs to connection ${data.connectionId}, not ${deps.connectionId}: not sent from here.`,
    );
  }
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
    deps.finish(sheetId, row, {
      line: data.line,
      ...(data.reference !== undefined && { reference: data.reference }),
      ...outcome,
      attempts: job.attemptsStarted,
    });
  const lastAttempt = job.attemptsMade + 1 >= job.maxAttempts;
  const wait = async (why: string) => {
    if (state.waits >= MAX_WAITS) {
      return finish({
        status: 'needs-review',
        error: `${why} for over ${(MAX_WAITS * WAIT_MS) / 60_000} minutes: check it, then import this row again.`,
      });
    }
    await save({ ...state, waits: state.waits + 1 });
    throw new RowInterruption({ kind: 'delay', ms: WAIT_MS });
  };
  const adopt = async (answered: Extract<CreateClaim, { kind: 'answered' }>) => {
    await save({
      ...state,
      intent: undefined,
      orderId: answered.orderId,
      inspectionIds: answered.inspectionIds,
      fileIds: data.attachments.map(() => null),
    });
    if (key !== null) await deps.ledger.confirm(key, me, answered.orderId);
  };
  const unknownOutcome = async (sentAt: string, answer: string) => {
    if (key !== null) await deps.ledger.markUnknown(key, me);
    return finish({
      status: 'needs-review',
      error: needsReviewText(sentAt, answer),
      review: { sentAt, answer },
    });
  };

  // 1. An answer recorded by an attempt that stopped before writing it here.
  if (state.orderId === undefined) {
    const known = await deps.creates.createOf(sheetId, row);
    if (known.kind === 'answered') await adopt(known);
    else if (known.kind === 'sent' && state.intent !== undefined) {
      // Sent by this row's earlier attempt and never answered: give a live sender (a stall that
      // was not a death) a moment to record its answer, then it is unknown.
      if (state.waits < 5) return wait('the create sent earlier has no recorded answer');
      return unknownOutcome(state.intent.sentAt, 'none recorded: the attempt that sent it stopped');
    }
  }

  // 2. Has this row (by reference or content) become an order before?
  if (key !== null && state.orderId === undefined) {
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
    if (claim.kind === 'busy') {
      return wait(
        `another row with the same key (sheet ${claim.sheetId}, row ${claim.row}) is being imported`,
      );
    }
  }

  // 3. The create: sent by one attempt at most, and never again when its outcome is unknown.
  if (state.orderId === undefined) {
    await interruptibleWait((signal) => deps.pace.turn(signal), deps);
    const token = `${job.attemptsStarted}.${randomBytes(6).toString('hex')}`;
    const claim = await deps.creates.claimCreate(sheetId, row, token);
    if (claim.kind === 'answered') await adopt(claim);
    else if (claim.kind === 'sent') {
      if (state.waits < 5) return wait('another attempt is sending this row');
      return unknownOutcome(
        state.intent?.sentAt ?? 'an unknown time',
        'sent by another attempt, no answer recorded',
      );
    } else {
      const sentAt = new Date(deps.now()).toISOString();
      await save({ ...state, intent: { sentAt, attempt: job.attemptsStarted, token } });
      let created;
      try {
        created = await deps.api.createOrder(data.order, deps.signal);
      } catch (error) {
        return handleCreateError(error, token);
      }
      const inspectionIds = created.inspections.map((i) => i.id);
      await deps.creates.answerCreate(sheetId, row, created.id, inspectionIds); // first: survives anything
      await adopt({ kind: 'answered', orderId: created.id, inspectionIds });
      log.info({ orderId: created.id }, 'order created');
    }
  }
  const orderId = state.orderId as number;

  // 4. Each attachment; once it has an id it is never sent again.
  const fileIds = data.attachments.map((_, k) => state.fileIds[k] ?? null);
  const refused: string[] = [];
  for (const [k, attachment] of data.attachments.entries()) {
    if (fileIds[k] !== null) continue;
    try {
      await interruptibleWait((signal) => deps.pace.turn(signal), deps);
      // A process that stopped mid-upload leaves `uploading` behind: this is a second sending.
      const resent = state.uploading === k ? [...new Set([...state.resent, k])] : state.resent;
      await save({ ...state, resent, uploading: k });
      fileIds[k] = await deps.api.uploadFile(
        orderId,
        {
          name: basename(attachment.path),
          open: () => deps.openAttachment(sheetId, attachment.path),
        },
        deps.signal,
      );
      await save({ ...state, fileIds: [...fileIds], uploading: undefined });
    } catch (error) {
      if (error instanceof AttachmentRefused) {
        // Changed since validation (a link put in its place): nothing was sent, nor will be.
        await save({ ...state, uploading: undefined });
        refused.push(withoutFullStop(error.message));
        continue;
      }
      if (error instanceof ApiError && (error.kind === 'permanent' || error.kind === 'retryable')) {
        await save({ ...state, uploading: undefined }); // not stored: sending it again is no repeat
      }
      if (error instanceof ApiError && error.kind === 'permanent') {
        refused.push(`${attachment.path}: ${withoutFullStop(error.message)}`);
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
        refused.push(`${attachment.path}: ${withoutFullStop(error.message)} (no more retries)`);
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
  const done = { orderId, inspectionIds: state.inspectionIds ?? [], fileIds };
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

  async function handleCreateError(error: unknown, token: string): Promise<void> {
    if (error instanceof AbortedError) throw error; // shutting down: the intent and claim stay, as they should
    if (!(error instanceof ApiError)) throw error;
    const cleared = { ...state, intent: undefined };
    switch (error.kind) {
      case 'permanent':
        await deps.creates.unclaimCreate(sheetId, row, token);
        await save(cleared);
        if (key !== null) await deps.ledger.release(key, me);
        return finish({
          status: 'failed',
          error: `the API refused the order: ${error.message}`,
          ...(error.details.fieldErrors && { fieldErrors: error.details.fieldErrors }),
        });
      case 'ambiguous':
        return unknownOutcome(
          state.intent?.sentAt ?? new Date(deps.now()).toISOString(),
          error.message,
        );
      case 'retryable':
      case 'auth':
      case 'config':
        // Nothing was done on the server: the create may be sent again.
        await deps.creates.unclaimCreate(sheetId, row, token);
        await save(cleared);
        if (error.kind === 'retryable' && lastAttempt && error.details.retryAfterMs === undefined) {
          if (key !== null) await deps.ledger.release(key, me);
          return finish({ status: 'failed', error: `no more retries: ${error.message}` });
        }
        throw interruptionFor(error) ?? error;
    }
  }
}

/** A message to be quoted inside a longer sentence, which brings its own full stop. */
function withoutFullStop(message: string): string {
  return message.replace(/[.\s]+$/, '');
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
