/**
 * One run of a row job: what its steps share (the job, its parsed data, the state as last
 * stored) and the moves more than one step makes — wait for another row or attempt, take over an
 * answer recorded elsewhere, end in `needs-review` when a create's outcome is unknown.
 *
 * A row's progress is kept in Redis by row (store/row-progress.ts: its claim, which is also the
 * intent, then the order and each file's id); the job itself only counts its waits. State an
 * older version kept on the job is still read.
 */
import type { Logger } from 'pino';

import { type Context, stopSignals } from '../context.js';
import { rowJobId } from '../queue/queues.js';
import type { RowOutcome } from '../glossary.js';
import type { OrderProgress } from '../store/row-progress.js';
import { interruptibleWait } from '../stopping.js';
import { RowInterruption } from './interruption.js';
import { recordOutcome } from './outcome.js';
import type { RowJob, RowState } from './row-data.js';
import { ROW_MAX_WAITS, ROW_WAIT_MS } from '../policy.js';

/** What the row job needs of its BullMQ job. */
export interface RowJobHandle {
  /** Parsed by the processor (rowJobSchema). */
  data: RowJob;
  attemptsStarted: number;
  /** Failed attempts before this one. */
  attemptsMade: number;
  /** Attempts allowed in all. */
  maxAttempts: number;
  updateData(data: RowJob): Promise<void>;
}

/** Where a step leaves the row: on to the next step, or final (its outcome is recorded). */
export type Step = 'next' | 'final';

/** A row's outcome as a step knows it; the attempt count is the run's. */
export type StepOutcome = Omit<RowOutcome, 'attempts'>;

export class RowRun {
  readonly data: RowJob;
  /** The state as last stored. */
  state: RowState;
  /** This row, as the ledger and the row's progress name it. */
  readonly me: { sheetId: string; row: number };
  /** BullMQ will not run this job again if this attempt fails. */
  readonly lastAttempt: boolean;
  /**
   * The attachment an earlier attempt was sending when it stopped, with no answer kept: sent
   * again, it may be on the order twice. Cleared once said.
   */
  interrupted: number | undefined;
  readonly #ctx: Context;
  #log: Logger | undefined;

  constructor(
    ctx: Context,
    readonly job: RowJobHandle,
  ) {
    const { data } = job;
    this.#ctx = ctx;
    this.data = data;
    this.state =
      data.existingOrderId !== undefined && data.state.orderId === undefined
        ? { ...data.state, orderId: data.existingOrderId }
        : data.state;
    this.interrupted = this.state.uploading;
    this.me = { sheetId: data.sheetId, row: data.row };
    this.lastAttempt = job.attemptsMade + 1 >= job.maxAttempts;
  }

  /** The row's logger (made when first asked for: most rows log once, if at all). */
  get log(): Logger {
    this.#log ??= this.#ctx.logger.child({
      ...this.me,
      jobId: rowJobId(this.data.sheetId, this.data.row),
    });
    return this.#log;
  }

  /** Takes what is stored of the row's order (by any attempt) as its state. */
  adopt(order: OrderProgress): void {
    const { state } = this;
    this.state = {
      ...state,
      intent: undefined,
      orderId: order.orderId,
      inspectionIds: order.inspectionIds,
      fileIds: order.fileIds ?? (state.orderId === order.orderId ? state.fileIds : []),
      resent: order.resent ?? (state.orderId === order.orderId ? state.resent : []),
      uploading: order.uploading,
    };
    this.interrupted = order.uploading;
  }

  /** Stores the uploads' progress on the row's order before the step after it begins. */
  async keep(next: RowState & { orderId: number }): Promise<void> {
    this.state = next;
    await this.#ctx.progress.save(this.me, {
      orderId: next.orderId,
      inspectionIds: next.inspectionIds ?? [],
      fileIds: this.data.attachments.map((_, k) => next.fileIds[k] ?? null),
      resent: next.resent,
      ...(next.uploading !== undefined && { uploading: next.uploading }),
    });
  }

  /** Counts one more wait on the job, for the next attempt to see. */
  async countWait(): Promise<void> {
    this.state = { ...this.state, waits: this.state.waits + 1 };
    await this.job.updateData({
      ...this.data,
      state: { ...this.data.state, waits: this.state.waits },
    });
  }

  /** Records the row's final result (rows/outcome.ts: a row already final keeps its first). */
  async finish(outcome: StepOutcome): Promise<'final'> {
    await recordOutcome(this.#ctx, this.data.sheetId, this.data.row, {
      line: this.data.line,
      ...(this.data.reference !== undefined && { reference: this.data.reference }),
      ...outcome,
      attempts: this.job.attemptsStarted,
    });
    return 'final';
  }
}

/** Waits its turn at the API (the pace shared by every worker), or stops with the process. */
export async function apiTurn(ctx: Context): Promise<void> {
  if (ctx.pace.takeFreeTurn()) return;
  await interruptibleWait((signal) => ctx.pace.turn(signal), stopSignals(ctx));
}

/**
 * Another row or attempt holds what this one needs: the job goes back to the queue for a while,
 * or, after too long, the row is left to a person.
 */
export async function waitOrReview(run: RowRun, why: string): Promise<'final'> {
  if (run.state.waits >= ROW_MAX_WAITS) {
    return run.finish({
      status: 'needs-review',
      error: `${why} for over ${(ROW_MAX_WAITS * ROW_WAIT_MS) / 60_000} minutes: check it, then import this row again.`,
    });
  }
  await run.countWait();
  throw new RowInterruption({ kind: 'delay', ms: ROW_WAIT_MS });
}

/**
 * Takes the create's answer, recorded by an earlier attempt or another worker, as this row's
 * order. The ledger is told again: an older version wrote it apart from the answer.
 */
export async function adoptAnswer(ctx: Context, run: RowRun, order: OrderProgress): Promise<void> {
  run.adopt(order);
  if (run.data.key !== null) await ctx.ledger.confirm(run.data.key, run.me, order.orderId);
}

/** A create sent with no answer known: never sent again, left to a person. */
export async function unknownOutcome(
  ctx: Context,
  run: RowRun,
  sentAt: string,
  answer: string,
): Promise<'final'> {
  if (run.data.key !== null) await ctx.ledger.markUnknown(run.data.key, run.me);
  return run.finish({
    status: 'needs-review',
    error: `the order was sent at ${sentAt} but its outcome is unknown (${answer}). It may or may not exist: look for it at the inspection company (or in the API) before importing this row again; importing it blindly could create it twice.`,
    review: { sentAt, answer },
  });
}
