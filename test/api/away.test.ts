import { describe, expect, it } from 'vitest';

import { apiAway, ApiError, type ApiErrorDetails } from '../../src/api/errors.js';

function apiError(details: Partial<ApiErrorDetails> & Pick<ApiErrorDetails, 'kind'>): ApiError {
  return new ApiError('GET http://api.test/api/orders/0 failed.', {
    method: 'GET',
    url: 'http://api.test/api/orders/0',
    ...details,
  });
}

const refused = () => apiError({ kind: 'retryable', code: 'ECONNREFUSED' });
const busy = () => apiError({ kind: 'retryable', status: 503, retryAfterMs: 1000 });

describe('apiAway', () => {
  it.each([
    ['a refused connection', refused(), true],
    ['a DNS failure', apiError({ kind: 'retryable', code: 'ENOTFOUND' }), true],
    ['a 429', apiError({ kind: 'retryable', status: 429 }), true],
    ['a 502', apiError({ kind: 'retryable', status: 502 }), true],
    ['a 503', busy(), true],
    ['a timed-out GET', apiError({ kind: 'ambiguous', code: 'TIMEOUT' }), true],
    ['a reset', apiError({ kind: 'ambiguous', code: 'UND_ERR_SOCKET' }), true],
    ['a 504', apiError({ kind: 'ambiguous', status: 504 }), true],
    ['a 500', apiError({ kind: 'ambiguous', status: 500 }), false],
    ['a 2xx with a body nobody can read', apiError({ kind: 'ambiguous' }), false],
    ['a redirect', apiError({ kind: 'config', status: 302 }), false],
    ['a 405', apiError({ kind: 'config', status: 405 }), false],
    ['a 422', apiError({ kind: 'permanent', status: 422 }), false],
    ['a refused token', apiError({ kind: 'auth', status: 401 }), false],
    ['not an API error', new Error('ECONNREFUSED'), false],
  ])('%s: %s', (_what, error, expected) => {
    expect(apiAway(error)).toBe(expected);
  });
});
