/** What a person reads in English: rows. The key set of every language's rows.ts. */
export const rows = {
  'rows.line': 'line {line}',
} as const;
