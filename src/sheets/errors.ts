import { isKnown, KnownError } from '../errors.js';

/**
 * A sheet that cannot be read at all (binary, empty, no header, broken quoting, broken JSON): one
 * plain message for the whole sheet, naming the line where that is known.
 */
export class SheetError extends KnownError {
  override name = 'SheetError';
  /** The same bytes read again fail the same way: a person must save the sheet anew. */
  readonly retryable = false;

  constructor(
    message: string,
    readonly line?: number,
    options?: ErrorOptions,
  ) {
    super('sheet.unreadable', line === undefined ? message : `line ${line}: ${message}`, options);
  }
}

/**
 * A mapping that the sheet's header cannot use ('mapping.invalid') is the sheet's error, at the
 * header's line; any other error is left as it is.
 */
export function atHeader(error: unknown, headerLine: number): unknown {
  if (!isKnown(error, 'mapping.invalid')) return error;
  return new SheetError(error.message, headerLine, { cause: error });
}
