/** A row's progress as it is written in Redis, in this version's form and an earlier one's. */
import { describe, expect, it } from 'vitest';

import { decodeProgress, encodeProgress, sentEntry } from '../../src/store/row-progress.js';

describe('a row progress entry', () => {
  it('is nothing when absent or empty', () => {
    expect(decodeProgress(null)).toEqual({ kind: 'none' });
    expect(decodeProgress('')).toEqual({ kind: 'none' });
  });

  it('reads a claim with when its create left, and an older claim without', () => {
    const entry = sentEntry('2.0a1b2c', '2026-11-26T10:00:00.000Z');
    expect(decodeProgress(entry)).toEqual({
      kind: 'sent',
      claim: entry,
      sentAt: '2026-11-26T10:00:00.000Z',
    });
    expect(decodeProgress('sent|1.abcdef')).toEqual({ kind: 'sent', claim: 'sent|1.abcdef' });
  });

  it('round-trips an order with files uploaded, missing, resent and on their way', () => {
    const order = {
      orderId: 100234,
      inspectionIds: [500001, 500002],
      fileIds: [7001, null, 7003, null],
      resent: [2],
      uploading: 3,
    };
    expect(decodeProgress(encodeProgress(order))).toEqual({ kind: 'answered', ...order });
  });

  it('round-trips an order without inspections or files', () => {
    const order = { orderId: 9, inspectionIds: [], fileIds: [], resent: [] };
    expect(decodeProgress(encodeProgress(order))).toEqual({ kind: 'answered', ...order });
  });

  it('reads an answer an earlier version wrote, its files left to the job', () => {
    expect(decodeProgress('answered|100001|500001,500002')).toEqual({
      kind: 'answered',
      orderId: 100001,
      inspectionIds: [500001, 500002],
    });
    expect(decodeProgress('answered|100001|')).toEqual({
      kind: 'answered',
      orderId: 100001,
      inspectionIds: [],
    });
  });
});
