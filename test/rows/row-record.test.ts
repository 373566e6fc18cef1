/**
 * A row's state read in one place, from its progress in Redis and what its job carries; a job an
 * older version left with its progress on it read as migration 2 leaves it (its progress moved
 * into the row's entry, the job stripped of it).
 */
import { describe, expect, it } from 'vitest';

import { type RowJobData, rowJobSchema } from '../../src/rows/row-data.js';
import { rowRecord } from '../../src/rows/row-record.js';
import { movedEntry } from '../../src/store/migrations/002-row-state.js';
import { decodeProgress, type Progress } from '../../src/store/row-progress.js';

const SENT_AT = '2026-11-26T10:00:00.000Z';
const EARLIER = '2026-11-25T09:00:00.000Z';
const NONE: Progress = { kind: 'none' };

/** A parsed row job with `files` attachments, and what else it names. */
function job(files: number, extra: Partial<RowJobData> = {}) {
  return rowJobSchema.parse({
    connectionId: 'c1',
    sheetId: 's1',
    row: 1,
    key: 'k',
    order: {},
    attachments: Array.from({ length: files }, (_, k) => ({ path: `docs/${k}.pdf`, bytes: 9 })),
    ...extra,
  });
}

/** What an older version kept on a job (migration 2 reads it), defaults filled in. */
interface OlderState {
  intent?: { sentAt: string; attempt: number };
  orderId?: number;
  inspectionIds?: number[];
  fileIds?: Array<number | null>;
  resent?: number[];
  uploading?: number;
  waits?: number;
}

/** The row as read after migration 2 moved an older job's `state` into its entry. */
function migrated(files: number, state: OlderState, progress: Progress, existingOrderId?: number) {
  const older = { fileIds: [], resent: [], ...state };
  const entry = movedEntry(older, existingOrderId, progress);
  const after = entry === undefined ? progress : decodeProgress(entry);
  return rowRecord(job(files, existingOrderId === undefined ? {} : { existingOrderId }), after);
}

function answered(order: Omit<Progress & { kind: 'answered' }, 'kind'>): Progress {
  return { kind: 'answered', ...order };
}

describe('a row with nothing in Redis', () => {
  it('is nothing sent when its job names nothing either', () => {
    expect(rowRecord(job(1), NONE)).toEqual({ kind: 'none' });
  });

  it('is its order, no file yet, when it was dropped back from failed/', () => {
    expect(rowRecord(job(2, { existingOrderId: 7 }), NONE)).toEqual({
      kind: 'order',
      orderId: 7,
      inspectionIds: [],
      fileIds: [null, null],
      resent: [],
    });
  });

  it('is the order an older version kept on its job, with its files', () => {
    const state = { orderId: 7, inspectionIds: [70], fileIds: [1], resent: [0], uploading: 1 };
    expect(migrated(2, state, NONE)).toEqual({
      kind: 'order',
      orderId: 7,
      inspectionIds: [70],
      fileIds: [1, null],
      resent: [0],
      uploading: 1,
    });
  });

  it("takes an older version's order over the one it was dropped back with", () => {
    expect(migrated(0, { orderId: 8 }, NONE, 7)).toMatchObject({ kind: 'order', orderId: 8 });
  });

  it('is a create sent, by a claim no attempt holds, when an older version kept its intent on the job', () => {
    const record = migrated(1, { intent: { sentAt: EARLIER, attempt: 1 } }, NONE);
    expect(record).toEqual({ kind: 'sent', claim: `sent|older.1|${EARLIER}`, sentAt: EARLIER });
  });

  it("ignores the waits an older version counted on the job (they are Redis's now)", () => {
    expect(migrated(0, { waits: 4 }, NONE)).toEqual({ kind: 'none' });
  });
});

describe('a row whose create is claimed in Redis', () => {
  const claim = `sent|1.abc|${SENT_AT}`;

  it('is a create sent, with its claim and when it left', () => {
    expect(rowRecord(job(1), { kind: 'sent', claim, sentAt: SENT_AT })).toEqual({
      kind: 'sent',
      claim,
      sentAt: SENT_AT,
    });
  });

  it("takes when it left from an older version's intent when the claim does not say", () => {
    const intent = { intent: { sentAt: EARLIER, attempt: 1 } };
    expect(migrated(1, intent, { kind: 'sent', claim: 'sent|1.abc' })).toEqual({
      kind: 'sent',
      claim: `sent|1.abc|${EARLIER}`,
      sentAt: EARLIER,
    });
  });

  it('says no time when neither does', () => {
    expect(rowRecord(job(1), { kind: 'sent', claim: 'sent|1.abc' })).toEqual({
      kind: 'sent',
      claim: 'sent|1.abc',
    });
  });

  it('is the order its job names (an order exists: nothing is left unknown)', () => {
    const record = rowRecord(job(1, { existingOrderId: 7 }), { kind: 'sent', claim });
    expect(record).toMatchObject({ kind: 'order', orderId: 7 });
  });
});

describe('a row whose answer is in Redis', () => {
  it('is that order, a file id or null for each attachment', () => {
    const progress = answered({ orderId: 9, inspectionIds: [90, 91], fileIds: [], resent: [] });
    expect(rowRecord(job(2), progress)).toEqual({
      kind: 'order',
      orderId: 9,
      inspectionIds: [90, 91],
      fileIds: [null, null],
      resent: [],
    });
  });

  it('keeps the files uploaded, resent and on their way', () => {
    const progress = answered({
      orderId: 9,
      inspectionIds: [],
      fileIds: [1, null, 3],
      resent: [2],
      uploading: 1,
    });
    expect(rowRecord(job(3), progress)).toEqual({
      kind: 'order',
      orderId: 9,
      inspectionIds: [],
      fileIds: [1, null, 3],
      resent: [2],
      uploading: 1,
    });
  });

  it('has one file id per attachment, whatever the entry holds', () => {
    const progress = answered({ orderId: 9, inspectionIds: [], fileIds: [1, 2, 3], resent: [] });
    expect(rowRecord(job(1), progress)).toMatchObject({ fileIds: [1] });
  });

  it('wins over an order its job names', () => {
    const progress = answered({ orderId: 9, inspectionIds: [], fileIds: [5], resent: [] });
    const record = migrated(1, { orderId: 8, fileIds: [4] }, progress, 7);
    expect(record).toMatchObject({ orderId: 9, fileIds: [5] });
  });

  it('wins over an intent its job kept', () => {
    const progress = answered({ orderId: 9, inspectionIds: [], fileIds: [], resent: [] });
    const record = migrated(0, { intent: { sentAt: EARLIER, attempt: 1 } }, progress);
    expect(record).toMatchObject({ kind: 'order', orderId: 9 });
  });

  it("written by an older version, takes the files from the job's state of the same order", () => {
    const state = { orderId: 9, fileIds: [1], resent: [0] };
    expect(migrated(2, state, answered({ orderId: 9, inspectionIds: [90] }))).toEqual({
      kind: 'order',
      orderId: 9,
      inspectionIds: [90],
      fileIds: [1, null],
      resent: [0],
    });
  });

  it("written by an older version, takes no files from the job's state of another order", () => {
    const state = { orderId: 8, fileIds: [1], resent: [0] };
    expect(migrated(2, state, answered({ orderId: 9, inspectionIds: [] }))).toMatchObject({
      fileIds: [null, null],
      resent: [],
    });
  });

  it('written by an older version for a row dropped back, has no file yet', () => {
    const dropped = job(1, { existingOrderId: 9 });
    expect(rowRecord(dropped, answered({ orderId: 9, inspectionIds: [] }))).toMatchObject({
      orderId: 9,
      fileIds: [null],
      resent: [],
    });
  });

  it('with no file on its way, says none', () => {
    const progress = answered({ orderId: 9, inspectionIds: [], fileIds: [1], resent: [] });
    expect(rowRecord(job(1), progress)).not.toHaveProperty('uploading');
  });
});
