/** What a person reads in English: dashboard. The key set of every language's dashboard.ts. */
export const dashboard = {
  'dashboard.language': 'Language',
} as const;
