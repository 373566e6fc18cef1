import { describe, expect, it } from 'vitest';

import {
  apiIdentity,
  connectionId,
  connectionOf,
  normaliseBaseUrl,
} from '../../src/connections/connection.js';
import { knownError } from '../helpers/known-error.js';

describe('normaliseBaseUrl', () => {
  it.each([
    ['http://127.0.0.1:4010', 'http://127.0.0.1:4010'],
    ['http://127.0.0.1:4010/', 'http://127.0.0.1:4010'],
    ['HTTP://Api.Example.BE', 'http://api.example.be'],
    ['https://api.example.be:443/', 'https://api.example.be'],
    ['http://api.example.be:80/', 'http://api.example.be'],
    ['https://api.example.be:8443', 'https://api.example.be:8443'],
    ['https://api.example.be/v2/', 'https://api.example.be/v2'],
    ['https://api.example.be/v2///', 'https://api.example.be/v2'],
    ['  https://api.example.be  ', 'https://api.example.be'],
    ['http://[::1]:4010/', 'http://[::1]:4010'],
  ])('%s → %s', (given, expected) => {
    expect(normaliseBaseUrl(given)).toBe(expected);
  });

  it.each([
    ['https://user:pass@api.example.be', /user name or password/],
    ['https://user@api.example.be', /user name or password/],
    ['https://:pass@api.example.be', /user name or password/],
    ['ftp://api.example.be', /http:\/\/ or https:\/\//],
    ['api.example.be', /not a URL/],
    ['https://api.example.be/?debug=1', /query/],
    ['https://api.example.be/#x', /fragment/],
  ])('refuses %s', (given, message) => {
    expect(() => normaliseBaseUrl(given)).toThrow(knownError('Refused', 'connection.url-invalid'));
    expect(() => normaliseBaseUrl(given)).toThrow(message);
  });

  it('never repeats the credentials it refuses', () => {
    const error = (() => {
      try {
        normaliseBaseUrl('https://agent:s3cret@api.example.be');
      } catch (caught) {
        return caught as Error;
      }
      return undefined;
    })();
    expect(error?.message).not.toContain('s3cret');
  });
});

describe('apiIdentity', () => {
  it('takes the loopback names for one host', () => {
    const ids = [
      'http://127.0.0.1:4010',
      'http://localhost:4010',
      'http://[::1]:4010',
      'http://0.0.0.0:4010',
      'http://[::]:4010',
      'http://[::ffff:127.0.0.1]:4010',
      'http://[::ffff:7f00:1]:4010',
      'http://127.1:4010',
      'http://localhost.:4010',
    ].map((url) => apiIdentity(normaliseBaseUrl(url)));
    expect(new Set(ids).size).toBe(1);
  });

  it.each([
    ['http://localhost:4010', 'http://localhost:4011'],
    ['http://localhost:4010', 'https://localhost:4010'],
    ['http://127.0.0.2:4010', 'http://127.0.0.1:4010'],
    ['https://api.example.be', 'https://api.example.be/v2'],
    ['https://a.example.be', 'https://b.example.be'],
  ])('tells %s from %s', (one, other) => {
    expect(apiIdentity(one)).not.toBe(apiIdentity(other));
  });
});

describe('connectionId', () => {
  it('is 16 hex digits and holds nothing of the token', () => {
    const id = connectionId('https://api.example.be', 'secret-token');
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(id).not.toContain('secret');
  });

  it('tells two tokens on one API apart (two organisations)', () => {
    expect(connectionId('https://api.example.be', 'a')).not.toBe(
      connectionId('https://api.example.be', 'b'),
    );
  });

  it('gives the three spellings of one API one connection', () => {
    const ids = ['http://127.0.0.1:4010', 'http://127.0.0.1:4010/', 'HTTP://LOCALHOST:4010'].map(
      (url) =>
        connectionOf({ apiBaseUrl: normaliseBaseUrl(url), token: 't', name: 'x', sandbox: false })
          .id,
    );
    expect(new Set(ids).size).toBe(1);
  });
});
