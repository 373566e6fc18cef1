import { expect } from 'vitest';

import type { ErrorKey } from '../../src/errors.js';

/**
 * Matches an error of one of the kinds (src/errors.ts, by its name) with this key, as thrown,
 * rejected or returned: `toThrow(knownError('UserError', 'config.invalid'))`.
 */
export function knownError(kind: 'UserError' | 'NotYet' | 'Refused', key: ErrorKey): Error {
  return expect.objectContaining({ name: kind, key }) as Error;
}
