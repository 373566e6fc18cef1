import { KnownError } from '../errors.js';

/**
 * What an API failure means for the row that met it:
 * - `permanent`: the API refused this request; sending it again gets the same answer.
 * - `retryable`: nothing happened on the server; the same request may be sent again.
 * - `ambiguous`: the request may have been carried out (a timeout or reset after sending, 500,
 *   504); sending a create again could create a second order.
 * - `auth`: the token is refused (401/403); true for every row, so the import stops.
 * - `config`: the API is not where the settings say (a redirect that must not be followed, 405).
 */
export type ErrorKind = 'permanent' | 'retryable' | 'ambiguous' | 'auth' | 'config';

export interface ApiErrorDetails {
  kind: ErrorKind;
  method: string;
  url: string;
  /** The HTTP status, when an answer came. */
  status?: number;
  /** The socket or undici error code, when no answer came. */
  code?: string;
  /** From Retry-After (429, 503). */
  retryAfterMs?: number;
  /** A 422's field errors, by the API's field names (`order_products.0.id`). */
  fieldErrors?: Record<string, string[]>;
}

/** A request that failed, with what its catcher reads: its kind, status, Retry-After, fields. */
export class ApiError extends KnownError {
  override name = 'ApiError';

  constructor(
    message: string,
    readonly details: ApiErrorDetails,
    options?: ErrorOptions,
  ) {
    super(`api.${details.kind}`, message, options);
  }

  get kind(): ErrorKind {
    return this.details.kind;
  }

  /** Only when nothing happened on the server: an ambiguous create must not be sent again. */
  get retryable(): boolean {
    return this.details.kind === 'retryable';
  }
}

/**
 * Thrown when the caller's signal (shutdown) stops a request, or a wait: not a verdict on the
 * request, which is made again when the work resumes.
 */
export class AbortedError extends KnownError {
  override name = 'AbortedError';
  readonly retryable = true;

  constructor(message: string, options?: ErrorOptions) {
    super('request.aborted', message, options);
  }
}

/**
 * Whether a failure says the API is away or busy for now rather than anything about the request:
 * what §3 calls safe to retry (refused, 429, 502, 503), no answer at all (a reset, a timeout), or
 * a gateway that got none (408, 504). A GET, which changes nothing, may wait all of it out; for a
 * create the ambiguous ones stay ambiguous (row-job.ts decides that, not this).
 */
export function apiAway(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  const { status, code } = error.details;
  if (error.kind === 'retryable') return true;
  if (status === 408 || status === 504) return true;
  // No answer at all, as opposed to an answer nobody could read (no status and no code).
  return error.kind === 'ambiguous' && status === undefined && code !== undefined;
}
