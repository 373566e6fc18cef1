import { describe, expect, it } from 'vitest';

import { ELSEWHERE_WAIT_MS } from '../../src/policy.js';
import { elsewhereWaitMs } from '../../src/store/sheet-home.js';

describe('elsewhereWaitMs', () => {
  it('starts short and doubles with each pickup, up to its ceiling', () => {
    const highest = (started: number) => elsewhereWaitMs(started, () => 1);
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20].map(highest)).toEqual([
      100,
      200,
      400,
      800,
      1600,
      3200,
      ELSEWHERE_WAIT_MS,
      ELSEWHERE_WAIT_MS,
      ELSEWHERE_WAIT_MS,
    ]);
  });

  it('spreads the waits of jobs handed back together over half their span', () => {
    expect(elsewhereWaitMs(3, () => 0)).toBe(200);
    expect(elsewhereWaitMs(3, () => 0.5)).toBe(300);
  });

  it('reads a count BullMQ never gives (0, negative) as the first pickup', () => {
    expect(elsewhereWaitMs(0, () => 1)).toBe(100);
    expect(elsewhereWaitMs(-3, () => 1)).toBe(100);
  });
});
