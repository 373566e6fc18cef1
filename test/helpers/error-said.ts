/** A known error said in three languages, for the tests of the error line's catalogue. */
import { expect } from 'vitest';

import { errorMessage, errorMessageKey } from '../../src/cli/error-line.js';
import { KnownError } from '../../src/errors.js';
import { wordsFor } from '../../src/language/words.js';

/** The known error `work` throws (or rejects with); anything else fails the test. */
export async function thrown(work: () => unknown): Promise<KnownError> {
  const error = await Promise.resolve()
    .then(work)
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  if (!(error instanceof KnownError)) throw new Error(`no known error: ${String(error)}`);
  return error;
}

/**
 * The error said in Dutch and French, checked: English from the catalogue is its message as
 * thrown; Dutch and French differ from it, and once its values are taken out no English word of
 * the message is left.
 */
export function expectSaid(error: KnownError): { nl: string; fr: string } {
  const key = errorMessageKey(error);
  expect(key, error.message).toBeDefined();
  expect(error.values, error.message).toBeDefined();
  expect(wordsFor('en').t(key ?? 'cli.unexpected', error.values), error.message).toBe(
    error.message,
  );
  const said = { nl: errorMessage(error, wordsFor('nl')), fr: errorMessage(error, wordsFor('fr')) };
  // A placeholder left unfilled, or an English word of the message (braces of an example may stay).
  for (const text of Object.values(said)) {
    expect(text).not.toBe(error.message);
    let words = text;
    for (const value of Object.values(error.values ?? {}))
      words = words.replaceAll(String(value), '');
    expect(words, text).not.toMatch(/\{\w+[,}]|\b(the|must|cannot|not|has|which|like)\b/);
  }
  return said;
}
