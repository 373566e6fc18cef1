/** What a person reads in English: sheets. The key set of every language's sheets.ts. */
export const sheets = {
  'sheets.line': 'line {line}',
} as const;
