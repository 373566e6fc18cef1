import type { sheets as english } from '../en/sheets.js';
import type { Translation } from '../translation.js';

export const sheets: Translation<typeof english> = {
  'sheets.line': 'ligne {line}',
};
