/**
 * A row's state, read in one place: what its progress entry in Redis says (store/row-progress.ts,
 * the one record a row's steps write), over what its job was queued with (the order of a row
 * dropped back from failed/). `RowRun` (a job's run) and `give-up.ts` (a job BullMQ gave up on)
 * both see a row through `rowRecord`, so they cannot disagree on whether its order exists.
 *
 * A job queued by an older version may still carry that version's progress in its data
 * (`state`): it is read here, and only here, below what Redis holds.
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
   * the progress entry that holds it (none for one an older version recorded on its job).
   */
  | { kind: 'sent'; claim?: string; sentAt?: string }
  | ({ kind: 'order' } & OrderState);

/** What the row's job says of its order: the one it was queued for, or an older version's. */
function fromJob(job: Pick<RowJob, 'existingOrderId' | 'state'>): {
  orderId?: number;
  inspectionIds?: number[];
  fileIds: Array<number | null>;
  resent: number[];
  uploading?: number;
  sentAt?: string;
} {
  const kept = job.state ?? { fileIds: [], resent: [] };
  return {
    ...kept,
    ...(kept.orderId === undefined && { orderId: job.existingOrderId }),
    ...(kept.intent !== undefined && { sentAt: kept.intent.sentAt }),
  };
}

/**
 * The row's state from its progress entry and its job. An answer recorded wins; else an order
 * the job names (dropped back from failed/, or an older version's); else a create sent; else
 * nothing. File ids come from the same record as the order they belong to.
 */
export function rowRecord(
  job: Pick<RowJob, 'attachments' | 'existingOrderId' | 'state'>,
  progress: Progress,
): RowRecord {
  const kept = fromJob(job);
  const perFile = (ids: Array<number | null>) => job.attachments.map((_, k) => ids[k] ?? null);
  if (progress.kind === 'answered') {
    // An older version's answer kept no files: they are on the job, if it is the same order.
    const same = kept.orderId === progress.orderId;
    const { uploading } = progress;
    return {
      kind: 'order',
      orderId: progress.orderId,
      inspectionIds: progress.inspectionIds,
      fileIds: perFile(progress.fileIds ?? (same ? kept.fileIds : [])),
      resent: progress.resent ?? (same ? kept.resent : []),
      ...(uploading !== undefined && { uploading }),
    };
  }
  if (kept.orderId !== undefined) {
    const { uploading } = kept;
    return {
      kind: 'order',
      orderId: kept.orderId,
      inspectionIds: kept.inspectionIds ?? [],
      fileIds: perFile(kept.fileIds),
      resent: kept.resent,
      ...(uploading !== undefined && { uploading }),
    };
  }
  if (progress.kind === 'sent') {
    const sentAt = progress.sentAt ?? kept.sentAt;
    return { kind: 'sent', claim: progress.claim, ...(sentAt !== undefined && { sentAt }) };
  }
  if (kept.sentAt !== undefined) return { kind: 'sent', sentAt: kept.sentAt };
  return { kind: 'none' };
}
