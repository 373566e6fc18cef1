import { describe, expect, it } from 'vitest';

import { apiHost } from '../../src/store/progress.js';

describe('apiHost', () => {
  it.each([
    ['https://api.example.be', 'api.example.be'],
    ['https://api.example.be/', 'api.example.be'],
    ['http://127.0.0.1:4010', '127.0.0.1:4010'],
    ['https://API.Example.be:8443/v1/', 'api.example.be:8443'],
    ['http://[::1]:4010', '[::1]:4010'],
    ['https://user:secret@api.example.be/', 'api.example.be'],
  ])('shows %s as %s, never credentials', (url, host) => {
    expect(apiHost(url)).toBe(host);
  });

  it('shows nothing for what is not a URL', () => {
    expect(apiHost('')).toBeUndefined();
    expect(apiHost('not a url')).toBeUndefined();
  });
});
