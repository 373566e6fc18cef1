import { describe, expect, it } from 'vitest';

import { parseSize, sandboxOptionsSchema } from '../../sandbox/options.js';
import { DEMO_TOKEN, parseTokens } from '../../sandbox/tokens.js';

describe('parseSize', () => {
  it.each([
    ['1048576', 1_048_576],
    ['2M', 2 * 1024 ** 2],
    ['2m', 2 * 1024 ** 2],
    ['512K', 512 * 1024],
    ['1G', 1024 ** 3],
    [' 8MB ', 8 * 1024 ** 2],
  ])('%s = %d bytes', (text, bytes) => {
    expect(parseSize(text)).toBe(bytes);
  });

  it.each([['two megabytes'], ['1.5M'], ['-1'], ['']])('refuses %j', (text) => {
    expect(() => parseSize(text)).toThrow(/is not a size/);
  });
});

describe('parseTokens', () => {
  it('reads TOKEN:ORG items, repeated or comma-separated', () => {
    expect(parseTokens(['a:acme', 'b:beta, c:acme'])).toEqual([
      { token: 'a', org: 'acme' },
      { token: 'b', org: 'beta' },
      { token: 'c', org: 'acme' },
    ]);
  });

  it('gives a token without an organisation one of its own', () => {
    expect(parseTokens(['solo'])).toEqual([{ token: 'solo', org: 'org-solo' }]);
  });

  it('keeps colons after the first in the organisation name', () => {
    expect(parseTokens(['t:acme:be'])).toEqual([{ token: 't', org: 'acme:be' }]);
  });

  it.each([
    [['a b:x'], /printable ASCII/],
    [['a:'], /empty organisation/],
    [['a:x', 'a:y'], /given twice/],
  ])('refuses %j', (items, message) => {
    expect(() => parseTokens(items)).toThrow(message);
  });
});

describe('sandboxOptionsSchema', () => {
  it('has working defaults', () => {
    const options = sandboxOptionsSchema.parse({});
    expect(options).toMatchObject({
      host: '127.0.0.1',
      port: 0,
      tokens: [DEMO_TOKEN],
      quirks: true,
      rateWindowMs: 60_000,
      redirectTrailingSlash: false,
      faults: { seed: 1, p503: 0, pResetBefore: 0, p500After: 0, pResetAfter: 0 },
    });
    expect(options.dataDir).toBeUndefined();
    expect(options.rateLimit).toBeUndefined();
  });

  it('refuses a probability above 1', () => {
    expect(sandboxOptionsSchema.safeParse({ faults: { p503: 1.5 } }).success).toBe(false);
  });
});
