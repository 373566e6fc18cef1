import type { rows as english } from '../en/rows.js';
import type { Translation } from '../translation.js';

export const rows: Translation<typeof english> = {
  'rows.line': 'ligne {line}',
};
