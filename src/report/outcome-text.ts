/** How a row's outcome is told in a report's files. */
import { type Words, wordsFor } from '../language/words.js';
import type { RowOutcome } from '../glossary.js';

/**
 * The row's error, with the API's field names (`order_products.0.id`) told as the sheet's
 * columns, the API's own sentences quoted as it gave them, in `words`.
 */
export function errorText(
  outcome: RowOutcome,
  columns: Record<string, string>,
  words: Words = wordsFor('en'),
): string {
  if (!outcome.fieldErrors) return outcome.error ?? '';
  const fields = Object.entries(outcome.fieldErrors).map(([field, messages]) => {
    const base = field.split('.')[0] ?? field;
    const column = columns[base] ?? base;
    return `${column}: ${messages.join(' ')}`;
  });
  return words.t('rows.outcome.refused', { reason: fields.join(' | ') });
}

/** A row that should have an outcome and has none (said again in the warnings). */
export function missingOutcome(words: Words): RowOutcome {
  return { status: 'failed', attempts: 0, error: words.t('rows.outcome.notProcessed') };
}
