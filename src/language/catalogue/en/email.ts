/** What a person reads in English: email. The key set of every language's email.ts. */
export const email = {
  'email.signature': '— order-importer',
} as const;
