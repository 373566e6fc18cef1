import type { email as english } from '../en/email.js';
import type { Translation } from '../translation.js';

export const email: Translation<typeof english> = {
  'email.signature': '— order-importer',
};
