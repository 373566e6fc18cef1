/**
 * One run of a row job: what its steps share (the job, its parsed data, the state as last
 * stored) and the moves more than one step makes — wait for another row or attempt, take over an
 * answer recorded elsewhere, end in `needs-review` when a create's outcome is unknown.
 *
 * A row's progress is kept in Redis by row (store/row-progress.ts: its claim, which is also the
 * intent, then the order and each file's id), and read through `rowRecord` (row-record.ts); the
 * job's data is its input, never written.
 */
import type { Logger } from 'pino';

import type { Context } from '../context.js';
import { rowJobId } from '../queue/queues.js';
import type { RowOutcome } from '../glossary.js';
import type { Progress } from '../store/row-progress.js';
import { RowInterruption } from './interruption.js';
import { recordOutcome } from './outcome.js';
import { ROW_MAX_WAITS, ROW_WAIT_MS } from '../policy.js';
import type { RowJob } from './row-data.js';
import { type RowRecord, rowRecord } from './row-record.js';

/** Where a run stands: the row's order and files once it has one. */
export interface RowState {
  orderId?: number;
  inspectionIds?: number[];
  /** By attachment position; null until that file's upload has an id. */
  fileIds: Array<number | null>;
  /** Attachments sent again after an unclear answer: they may be on the order twice. */
  resent: number[];
  /** The attachment being sent now; still set on a resume, it was sent with no answer kept. */
  uploading?: number;
}

/** What the row job needs of its BullMQ job. */
export interface RowJobHandle {
  /** Parsed by the processor (rowJobSchema). */
  data: RowJob;
  attemptsStarted: number;
  /** Failed attempts before this one. */
  attemptsMade: number;
  /** Attempts allowed in all. */
  maxAttempts: number;
}

/** Where a step leaves the row: on to the next step, or final (its outcome is recorded). */
export type Step = 'next' | 'final';

/** A row's outcome as a step knows it; the attempt count is the run's. */
export type StepOutcome = Omit<RowOutcome, 'attempts'>;

export class RowRun {
  readonly data: RowJob;
  /** The row as last read (`rowRecord`): before Redis is asked, what its job says. */
  record: RowRecord;
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

  /** The office's words: what the row's result says is told in them. */
  get words(): Context['words'] {
    return this.#ctx.words;
  }

  constructor(
    ctx: Context,
    readonly job: RowJobHandle,
  ) {
    const { data } = job;
    this.#ctx = ctx;
    this.data = data;
    this.record = rowRecord(data, { kind: 'none' });
    this.state = stateOf(this.record);
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

  /** Takes what is stored of the row (by any attempt) as its state. */
  adopt(progress: Progress): RowRecord {
    this.record = rowRecord(this.data, progress);
    this.state = stateOf(this.record);
    this.interrupted = this.state.uploading;
    return this.record;
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

  /** Counts one more wait of the row, for the next attempt to see: how many in all. */
  async countWait(): Promise<number> {
    return this.#ctx.progress.countWait(this.me);
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

/**
 * Another row or attempt holds what this one needs: the job goes back to the queue for a while,
 * or, after too long, the row is left to a person.
 */
export async function waitOrReview(run: RowRun, why: string): Promise<'final'> {
  if ((await run.countWait()) > ROW_MAX_WAITS) {
    return run.finish({
      status: 'needs-review',
      error: `${why} for over ${(ROW_MAX_WAITS * ROW_WAIT_MS) / 60_000} minutes: check it, then import this row again.`,
    });
  }
  throw waitAgain();
}

/** The job goes back to the queue for a while, no attempt spent (a wait counted already). */
export function waitAgain(): RowInterruption {
  return new RowInterruption({ kind: 'delay', ms: ROW_WAIT_MS });
}

/** A run's state from the row's record: its order's, or none yet. */
function stateOf(record: RowRecord): RowState {
  if (record.kind !== 'order') return { fileIds: [], resent: [] };
  const { kind: _kind, ...order } = record;
  return order;
}

/**
 * Takes the create's answer, recorded by an earlier attempt or another worker, as this row's
 * order. The ledger is told again: an older version wrote it apart from the answer.
 */
export async function adoptAnswer(
  ctx: Context,
  run: RowRun,
  answer: Progress & { kind: 'answered' },
): Promise<void> {
  run.adopt(answer);
  if (run.data.key !== null) await ctx.ledger.confirm(run.data.key, run.me, answer.orderId);
}

/** A create sent with no answer known: never sent again, left to a person. */
export async function unknownOutcome(
  ctx: Context,
  run: RowRun,
  /** When it left (ISO), when that is known. */
  sentAt: string | undefined,
  answer: string,
): Promise<'final'> {
  if (run.data.key !== null) await ctx.ledger.markUnknown(run.data.key, run.me);
  // `none`: the message says it left at an unknown time, in its own words.
  const when = sentAtText(run.words, sentAt) ?? 'none';
  return run.finish({
    status: 'needs-review',
    error: run.words.t('rows.outcome.unknown', { sentAt: when, answer }),
    review: { sentAt: sentAt ?? '', answer },
  });
}

/**
 * When a create left, as a person reads a time (`26 nov 2026, 11:00`, in Belgium); undefined
 * when it is not known. A text that is no time is shown as it is.
 */
export function sentAtText(
  words: Context['words'],
  sentAt: string | undefined,
): string | undefined {
  if (sentAt === undefined || sentAt === '') return undefined;
  const at = Date.parse(sentAt);
  return Number.isNaN(at) ? sentAt : words.dateTime(at);
}
