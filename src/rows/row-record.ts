/**
 * A row's state, read in one place: what its progress entry in Redis says (store/row-progress.ts,
 * the one record a row's steps write), over what its job was queued with (the order of a row
 * dropped back from failed/). `RowRun` (a job's run) and `give-up.ts` (a job BullMQ gave up on)
 * both see a row through `rowRecord`, so they cannot disagree on whether its order exists.
 * (A job queued by an older version carried its progress in its data: it was moved into the
 * row's progress entry at start-up, store/migrations/, number 2.)
 */
import type { Progress } from '../store/row-progress.js';
import type { RowJob } from './row-data.js';

/** The order of a row, with where its files stand. */
export interface OrderState {
  orderId: number;
  inspectionIds: number[];
  /** By attachment position (one per attachment), null until that file's upload has an id. */
  fileIds: Array<number | null>;
  /** Attachments sent again after an unclear answer: they may be on the order twice. */
  resent: number[];
  /** The attachment on its way when the record was written: sent, with no answer kept. */
  uploading?: number;
}

export type RowRecord =
  /** Nothing sent: the create is still to be claimed. */
  | { kind: 'none' }
  /**
   * A create sent (or about to be) and never answered: it may have made the order. `claim` is
   * the progress entry that holds it.
   */
  | { kind: 'sent'; claim: string; sentAt?: string }
  | ({ kind: 'order' } & OrderState);

/**
 * The row's state from its progress entry and its job. An answer recorded wins; else the order
 * the job names (a row dropped back from failed/); else a create sent; else nothing. File ids
 * come from the same record as the order they belong to.
 */
export function rowRecord(
  job: Pick<RowJob, 'attachments' | 'existingOrderId'>,
  progress: Progress,
): RowRecord {
  const perFile = (ids: Array<number | null>) => job.attachments.map((_, k) => ids[k] ?? null);
  if (progress.kind === 'answered') {
    const { uploading } = progress;
    return {
      kind: 'order',
      orderId: progress.orderId,
      inspectionIds: progress.inspectionIds,
      fileIds: perFile(progress.fileIds ?? []),
      resent: progress.resent ?? [],
      ...(uploading !== undefined && { uploading }),
    };
  }
  if (job.existingOrderId !== undefined) {
    return {
      kind: 'order',
      orderId: job.existingOrderId,
      inspectionIds: [],
      fileIds: perFile([]),
      resent: [],
    };
  }
  if (progress.kind === 'sent') {
    const { claim, sentAt } = progress;
    return { kind: 'sent', claim, ...(sentAt !== undefined && { sentAt }) };
  }
  return { kind: 'none' };
}
