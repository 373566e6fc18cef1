/** How a row's outcome is told in a report's files. */
import type { RowOutcome } from '../glossary.js';

/** The row's error, with the API's field names (`order_products.0.id`) told as the sheet's columns. */
export function errorText(outcome: RowOutcome, columns: Record<string, string>): string {
  if (!outcome.fieldErrors) return outcome.error ?? '';
  const fields = Object.entries(outcome.fieldErrors).map(([field, messages]) => {
    const base = field.split('.')[0] ?? field;
    const column = columns[base] ?? base;
    return `${column}: ${messages.join(' ')}`;
  });
  return `the API refused the order: ${fields.join(' | ')}`;
}

/** A row that should have an outcome and has none (said again in the warnings). */
export function missingOutcome(): RowOutcome {
  return {
    status: 'failed',
    attempts: 0,
    error: 'not processed: no result was recorded for this row (see the warnings).',
  };
}
