import { describe, expect, it } from 'vitest';

import { wordsFor } from '../../src/language/words.js';
import { orderOutcome } from '../../src/rows/order-outcome.js';
import { rowJobSchema } from '../../src/rows/row-data.js';
import type { RowState } from '../../src/rows/row-run.js';

/** A parsed row job with two attachments, its state as the upload step left it. */
function uploaded(state: Partial<RowState>) {
  const data = rowJobSchema.parse({
    connectionId: 'c1',
    sheetId: 's1',
    row: 1,
    key: null,
    order: {},
    attachments: [
      { path: 'docs/plan.pdf', bytes: 9 },
      { path: 'docs/photo.jpg', bytes: 9 },
    ],
  });
  return { data, state: { fileIds: [], resent: [], ...state }, words: wordsFor('en') };
}

describe("a row's outcome once its uploads are done", () => {
  it('is created, with its files, when every file is on the order', () => {
    const run = uploaded({ orderId: 7, inspectionIds: [70] });
    expect(orderOutcome(run, 7, { fileIds: [1, 2], refused: [] })).toEqual({
      status: 'created',
      orderId: 7,
      inspectionIds: [70],
      fileIds: [1, 2],
    });
  });

  it('names the files sent again after an unclear answer', () => {
    const run = uploaded({ orderId: 7, inspectionIds: [], resent: [1] });
    expect(orderOutcome(run, 7, { fileIds: [1, 2], refused: [] }).error).toBe(
      'sent again after an unclear answer, so possibly attached twice: docs/photo.jpg.',
    );
  });

  it('is failed, naming the missing files and why, when a file is not on the order', () => {
    const run = uploaded({ orderId: 7, inspectionIds: [] });
    const outcome = orderOutcome(run, 7, {
      fileIds: [1, null],
      refused: ['docs/photo.jpg: too large'],
    });
    expect(outcome).toMatchObject({
      status: 'failed',
      orderId: 7,
      fileIds: [1, null],
      missingFiles: ['docs/photo.jpg'],
    });
    expect(outcome.error).toBe(
      'order 7 exists, but 1 of its files could not be attached: docs/photo.jpg: too large. Drop the row back from failed/ to attach them to the same order.',
    );
  });
});
