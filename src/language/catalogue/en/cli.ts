/** What a person reads in English: cli. The key set of every language's cli.ts. */
export const cli = {
  'cli.unexpected': 'unexpected error: {details}',
} as const;
