import { describe, expect, it } from 'vitest';

import { isLostLock } from '../../src/workers/failures.js';

describe('isLostLock: what a Redis restart makes BullMQ say of a job, told as one plain line', () => {
  it.each([
    'Missing lock for job 20261126-235035-a548f3.r47. moveToFinished',
    'could not renew lock for job 7',
    'Lock mismatch for job 7. Cmd moveToDelayed from active',
    // A finish carried out, its answer lost with Redis, sent again: the job is gone already.
    'Missing key for job 20261126-235035-a548f3.r47. moveToFinished',
    'Missing key for job 20261126-235035-a548f3.r47. moveToDelayed',
  ])('%s', (message) => {
    expect(isLostLock(new Error(message))).toBe(true);
  });

  it.each([
    'Missing key for parent job bull:x:1. moveToFinished',
    'Missing key for job 7. addJob',
    'the API refused the order',
    'Missing key for job 7. moveToFinished and more',
  ])('not %s', (message) => {
    expect(isLostLock(new Error(message))).toBe(false);
  });
});
