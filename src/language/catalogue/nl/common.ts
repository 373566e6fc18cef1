import type { common as english } from '../en/common.js';
import type { Translation } from '../translation.js';

export const common: Translation<typeof english> = {
  'language.nl': 'Nederlands',
  'language.fr': 'Français',
  'language.en': 'English',
  'common.rows': '{count, plural, one {# rij} other {# rijen}}',
};
