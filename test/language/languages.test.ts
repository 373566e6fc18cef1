import { describe, expect, it } from 'vitest';

import {
  languageOf,
  languageOfAcceptLanguage,
  languageOfEnvironment,
} from '../../src/language/languages.js';

describe('languageOf', () => {
  it.each([
    ['nl', 'nl'],
    ['NL', 'nl'],
    ['nl_BE.UTF-8', 'nl'],
    ['fr-BE', 'fr'],
    ['en_GB@euro', 'en'],
    ['qps', 'qps'],
    ['de', undefined],
    ['C', undefined],
    ['POSIX', undefined],
    ['', undefined],
  ])('%j is %j', (text, language) => {
    expect(languageOf(text)).toBe(language);
  });
});

describe('languageOfEnvironment (gettext)', () => {
  it('LANGUAGE: the first entry of its list that is spoken', () => {
    expect(languageOfEnvironment({ LANGUAGE: 'de:fr_BE:nl', LANG: 'nl_BE.UTF-8' })).toBe('fr');
  });
  it('then LC_ALL, LC_MESSAGES, LANG: the first set decides', () => {
    expect(languageOfEnvironment({ LC_ALL: 'fr_BE.UTF-8', LANG: 'nl_BE.UTF-8' })).toBe('fr');
    expect(languageOfEnvironment({ LC_MESSAGES: 'nl_BE', LANG: 'fr_BE' })).toBe('nl');
    expect(languageOfEnvironment({ LANG: 'nl_BE.UTF-8' })).toBe('nl');
    expect(languageOfEnvironment({ LC_ALL: 'de_DE.UTF-8', LANG: 'nl_BE.UTF-8' })).toBe('en');
  });
  it('English when nothing says otherwise', () => {
    expect(languageOfEnvironment({})).toBe('en');
    expect(languageOfEnvironment({ LANGUAGE: 'de:es', LANG: 'C.UTF-8' })).toBe('en');
  });
});

describe('languageOfAcceptLanguage', () => {
  it.each([
    ['fr-BE,fr;q=0.9,en;q=0.8', 'fr'],
    ['de-DE,de;q=0.9,nl;q=0.5,en;q=0.4', 'nl'],
    ['en;q=0.5, nl;q=0.8', 'nl'],
    ['nl;q=0, fr', 'fr'],
    ['de, es', undefined],
    ['qps', undefined],
    ['', undefined],
    ['*', undefined],
  ])('%j is %j', (header, language) => {
    expect(languageOfAcceptLanguage(header)).toBe(language);
  });
  it('no header: none', () => {
    expect(languageOfAcceptLanguage(undefined)).toBeUndefined();
  });
});
