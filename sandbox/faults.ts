/**
 * Seeded, deterministic fault injection: the n-th API request of a sandbox gets the same faults
 * for the same seed, whatever the timing, so a failing rehearsal can be replayed exactly.
 */
import type { SandboxOptions } from './options.js';
import { mix, mulberry32 } from './random.js';

/** The fault options of the sandbox's options (their schema and defaults live there). */
export type FaultOptions = SandboxOptions['faults'];

export interface FaultDecision {
  /** Which API request this is, from 1. */
  sequence: number;
  delayMs: number;
  before: 'none' | 'reset' | '503';
  after: 'none' | 'reset' | '500';
}

export class FaultPlan {
  #sequence = 0;

  constructor(readonly options: FaultOptions) {}

  next(): FaultDecision {
    this.#sequence += 1;
    return decide(this.options, this.#sequence);
  }
}

/** The faults of request number `sequence`: a pure function of the options and the number. */
export function decide(s: FaultOptions, sequence: number): FaultDecision {
  const random = mulberry32(mix(s.seed, sequence));
  const [jitter, reset, unavailable, resetAfter, error500] = [
    random(),
    random(),
    random(),
    random(),
    random(),
  ];
  let before: FaultDecision['before'] = 'none';
  if (reset < s.pResetBefore) before = 'reset';
  else if (unavailable < s.p503) before = '503';
  let after: FaultDecision['after'] = 'none';
  if (resetAfter < s.pResetAfter) after = 'reset';
  else if (error500 < s.p500After) after = '500';
  return { sequence, delayMs: s.latencyMs + Math.floor(jitter * (s.jitterMs + 1)), before, after };
}
