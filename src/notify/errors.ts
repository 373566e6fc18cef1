import { KnownError } from '../errors.js';

/**
 * Why a notification was not delivered this time: `retry` (the receiver or the network is away
 * or busy: a network error, a 5xx, a 429, an SMTP 4xx) or `refused` (the receiver said no for
 * good: another 4xx, an SMTP 5xx; sending the same again gets the same answer).
 */
export class NotifyError extends KnownError {
  override name = 'NotifyError';
  readonly retryable: boolean;

  constructor(
    message: string,
    readonly kind: 'retry' | 'refused',
    /** The receiver's Retry-After, when it gave one. */
    readonly retryAfterMs?: number,
    options?: ErrorOptions,
  ) {
    super(kind === 'retry' ? 'notify.not-delivered' : 'notify.refused', message, options);
    this.retryable = kind === 'retry';
  }
}

/** An error's message with every secret given taken out (a password in an SMTP URL…). */
export function withoutSecrets(text: string, secrets: ReadonlyArray<string | undefined>): string {
  let shown = text;
  for (const secret of secrets) {
    if (secret !== undefined && secret.length > 0) shown = shown.split(secret).join('***');
  }
  return shown;
}
