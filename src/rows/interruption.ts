/**
 * Ways out of a row job that are not a result: the processor (jobs/rows.ts) turns them into
 * BullMQ's control flow.
 */
import { ApiError } from '../api/errors.js';
import { KnownError } from '../errors.js';
import { SHORTEST_HOLD_MS } from '../policy.js';
import type { ImportStop } from './stop-import.js';

export type RowInterrupt =
  /** Wait this long, then try again (another row or attempt holds what this one needs). */
  | { kind: 'delay'; ms: number }
  /** Every request must wait (429/503 Retry-After); the job goes back to the queue untouched. */
  | { kind: 'rate-limit'; ms: number }
  /** The import cannot go on for any row (token refused, API misconfigured). */
  | { kind: 'stop'; stop: ImportStop };

/** A row job's way out: a wait (retryable, no attempt spent) or a stop of the whole import. */
export class RowInterruption extends KnownError {
  override name = 'RowInterruption';
  readonly retryable: boolean;

  constructor(readonly interrupt: RowInterrupt) {
    super(
      `row.${interrupt.kind}`,
      interrupt.kind === 'stop'
        ? interrupt.stop.reason
        : `row job ${interrupt.kind} ${interrupt.ms} ms`,
    );
    this.retryable = interrupt.kind !== 'stop';
  }
}

/** The BullMQ-level interruption an API error calls for, if any. */
export function interruptionFor(error: unknown): RowInterruption | undefined {
  if (!(error instanceof ApiError)) return undefined;
  if (error.kind === 'auth') {
    const detail = `${error.details.status ?? ''} ${error.message}`;
    return new RowInterruption({
      kind: 'stop',
      stop: {
        reason: `the API refused the token (${detail}): check API_TOKEN / API_TOKEN_FILE. The import is paused; nothing more is sent.`,
        kind: 'auth',
        detail,
      },
    });
  }
  if (error.kind === 'config')
    return new RowInterruption({
      kind: 'stop',
      stop: { reason: error.message, kind: 'config', detail: error.message },
    });
  if (error.kind === 'retryable' && error.details.retryAfterMs !== undefined) {
    return new RowInterruption({
      kind: 'rate-limit',
      ms: Math.max(error.details.retryAfterMs, SHORTEST_HOLD_MS),
    });
  }
  return undefined;
}
