import type { cli as english } from '../en/cli.js';
import type { Translation } from '../translation.js';

export const cli: Translation<typeof english> = {
  'cli.unexpected': 'onverwachte fout: {details}',
};
