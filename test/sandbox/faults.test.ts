import { describe, expect, it } from 'vitest';

import { decide, FaultPlan, type FaultOptions } from '../../sandbox/faults.js';
import { faultsSchema } from '../../sandbox/options.js';

const none: FaultOptions = faultsSchema.parse({});

function run(options: FaultOptions, n: number) {
  const plan = new FaultPlan(options);
  return Array.from({ length: n }, () => plan.next());
}

describe('fault plan', () => {
  it('injects nothing by default', () => {
    for (const d of run(none, 500)) {
      expect(d).toMatchObject({ delayMs: 0, before: 'none', after: 'none' });
    }
  });

  it('gives the same faults for the same seed', () => {
    const options = {
      ...none,
      seed: 42,
      p503: 0.3,
      pResetBefore: 0.1,
      p500After: 0.2,
      jitterMs: 50,
    };
    expect(run(options, 200)).toEqual(run(options, 200));
  });

  it('gives other faults for another seed', () => {
    const a = run({ ...none, seed: 1, p503: 0.5 }, 100).map((d) => d.before);
    const b = run({ ...none, seed: 2, p503: 0.5 }, 100).map((d) => d.before);
    expect(a).not.toEqual(b);
  });

  it('depends only on the request number, not on what came before', () => {
    const options = { ...none, seed: 7, p503: 0.5 };
    expect(decide(options, 37)).toEqual(run(options, 37).at(-1));
  });

  it('always fires at probability 1', () => {
    for (const d of run({ ...none, p503: 1, p500After: 1 }, 50)) {
      expect(d).toMatchObject({ before: '503', after: '500' });
    }
  });

  it('prefers a reset over a 503 when both are drawn', () => {
    for (const d of run({ ...none, p503: 1, pResetBefore: 1, p500After: 1, pResetAfter: 1 }, 20)) {
      expect(d).toMatchObject({ before: 'reset', after: 'reset' });
    }
  });

  it('fires at about the asked rate', () => {
    const decisions = run({ ...none, seed: 3, p503: 0.2, pResetAfter: 0.05 }, 10_000);
    const rate503 = decisions.filter((d) => d.before === '503').length / decisions.length;
    const rateReset = decisions.filter((d) => d.after === 'reset').length / decisions.length;
    expect(rate503).toBeGreaterThan(0.18);
    expect(rate503).toBeLessThan(0.22);
    expect(rateReset).toBeGreaterThan(0.04);
    expect(rateReset).toBeLessThan(0.06);
  });

  it('adds latency between the fixed delay and the fixed delay plus jitter', () => {
    const delays = run({ ...none, latencyMs: 100, jitterMs: 20 }, 1000).map((d) => d.delayMs);
    expect(Math.min(...delays)).toBe(100);
    expect(Math.max(...delays)).toBe(120);
  });
});
