import { isKnown, KnownError } from '../errors.js';
import { type Words, wordsFor } from '../language/words.js';
import { lineValue, type Said, said, say } from './said.js';

/** What a SheetError says, for a module that makes one and needs nothing else of said.ts. */
export { said } from './said.js';

/**
 * A sheet that cannot be read at all (binary, empty, no header, broken quoting, broken JSON): one
 * plain message for the whole sheet, naming the line where that is known. Its `message` is
 * English, for the log; `said` is the same in the catalogue's terms, for a person's language
 * (`sheetText`). Made only when a sheet fails, so its words cost nothing while sheets parse.
 */
export class SheetError extends KnownError {
  override name = 'SheetError';
  /** The same bytes read again fail the same way: a person must save the sheet anew. */
  readonly retryable = false;

  constructor(
    readonly said: Said,
    readonly line?: number,
    options?: ErrorOptions,
  ) {
    super('sheet.unreadable', sheetSaying(wordsFor('en'), said, line), options);
  }
}

/** What a person reads of a sheet that cannot be read, in `words`. */
export function sheetText(words: Words, error: SheetError): string {
  return sheetSaying(words, error.said, error.line);
}

function sheetSaying(words: Words, text: Said, line: number | undefined): string {
  if (line === undefined) return say(words, text);
  return say(words, said('sheets.atLine', { line: lineValue(line), message: text }));
}

/**
 * A mapping that the sheet's header cannot use ('mapping.invalid') is the sheet's error, at the
 * header's line; any other error is left as it is.
 */
export function atHeader(error: unknown, headerLine: number): unknown {
  if (!isKnown(error, 'mapping.invalid')) return error;
  // The mapping's own error is said as the mapping's module wrote it.
  return new SheetError(said('sheets.mappingUnusable', { reason: error.message }), headerLine, {
    cause: error,
  });
}
