/**
 * The order statuses the importer itself adds to what the API says (docs/design.md "Language"):
 * `not found`, for an order the API no longer has. status.csv and the e-mails write it in the
 * office's words; the API's own statuses stay verbatim. Inside the importer (comparisons, the
 * events' JSON, `--json`) it is always `not found`: a status.csv written in any language, or by
 * a version before languages, is read back to it.
 */
import { LANGUAGES, PSEUDO, type Speech } from '../language/languages.js';
import { type Words, wordsFor } from '../language/words.js';

/** An order the API answers 404 (or 410) for. */
export const NOT_FOUND = 'not found';

const NOT_FOUND_KEY = 'email.order-status.not-found';

const SPEECHES: readonly Speech[] = [...LANGUAGES, PSEUDO];
/** How every language (and the pseudo-language) writes `not found`, in lower case. */
const NOT_FOUND_WRITTEN: ReadonlySet<string> = new Set(
  SPEECHES.map((language) => wordsFor(language).t(NOT_FOUND_KEY).toLowerCase()),
);

/** A status as a person reads it: the importer's own in `words`, the API's as it gave it. */
export function statusText(words: Words, status: string): string {
  return status === NOT_FOUND ? words.t(NOT_FOUND_KEY) : status;
}

/** A status as written in a status.csv, back to the importer's own value or the API's. */
export function statusRead(written: string): string {
  return NOT_FOUND_WRITTEN.has(written.trim().toLowerCase()) ? NOT_FOUND : written;
}
