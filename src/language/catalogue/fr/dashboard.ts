import type { dashboard as english } from '../en/dashboard.js';
import type { Translation } from '../translation.js';

export const dashboard: Translation<typeof english> = {
  'dashboard.language': 'Langue',
};
