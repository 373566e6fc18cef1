/** What a person reads in English: common. The key set of every language's common.ts. */
export const common = {
  // Each language by its own name, as a language switch shows it.
  'language.nl': 'Nederlands',
  'language.fr': 'Français',
  'language.en': 'English',
  'common.rows': '{count, plural, one {# row} other {# rows}}',
} as const;
