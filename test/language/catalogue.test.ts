import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';

import { LANGUAGES } from '../../src/language/languages.js';
import { CATALOGUES, type MessageKey, wordsFor } from '../../src/language/words.js';

/** Every placeholder a message reads, with its kind (`count:plural`, `name:argument`). */
function placeholders(message: string): string[] {
  const found = new Set<string>();
  const visit = (elements: MessageFormatElement[]) => {
    for (const element of elements) {
      if (element.type === TYPE.argument) found.add(`${element.value}:argument`);
      if (element.type === TYPE.number) found.add(`${element.value}:number`);
      if (element.type === TYPE.date || element.type === TYPE.time)
        found.add(`${element.value}:date`);
      if (element.type === TYPE.plural || element.type === TYPE.select) {
        found.add(`${element.value}:${element.type === TYPE.plural ? 'plural' : 'select'}`);
        for (const option of Object.values(element.options)) visit(option.value);
      }
      if (element.type === TYPE.tag) visit(element.children);
    }
  };
  visit(parse(message, { ignoreTag: true }));
  return [...found].sort();
}

const english = CATALOGUES.en;
const keys = Object.keys(english) as MessageKey[];

describe('the catalogues', () => {
  it.each(LANGUAGES)('%s has exactly the English keys', (language) => {
    expect(Object.keys(CATALOGUES[language]).sort()).toEqual([...keys].sort());
  });

  it.each(LANGUAGES)('%s: every message parses and reads the same placeholders', (language) => {
    const wrong = keys.filter(
      (key) =>
        JSON.stringify(placeholders(CATALOGUES[language][key])) !==
        JSON.stringify(placeholders(english[key])),
    );
    expect(wrong).toEqual([]);
  });

  it.each(LANGUAGES)('%s: no message is empty or padded', (language) => {
    const wrong = keys.filter((key) => {
      const text = CATALOGUES[language][key];
      return text.trim() === '' || text !== text.trim();
    });
    expect(wrong).toEqual([]);
  });

  it('a placeholder the translation lost is seen', () => {
    expect(placeholders('{count, plural, one {# rij} other {# rijen}}')).toEqual(['count:plural']);
    expect(placeholders('{count} rijen')).toEqual(['count:argument']);
  });
});

describe('words', () => {
  it('plurals follow each language', () => {
    expect(wordsFor('nl').t('common.rows', { count: 1 })).toBe('1 rij');
    expect(wordsFor('fr').t('common.rows', { count: 0 })).toBe('0 ligne');
    expect(wordsFor('en').t('common.rows', { count: 0 })).toBe('0 rows');
    expect(wordsFor('nl').t('common.rows', { count: 12_345 })).toBe('12.345 rijen');
  });

  it('the pseudo-language wraps every text', () => {
    expect(wordsFor('qps').t('common.rows', { count: 2 })).toBe('⟦2 rows⟧');
  });

  it('numbers and days as Belgians write them', () => {
    expect(wordsFor('nl').number(1234.5)).toBe('1.234,5');
    expect(wordsFor('fr').number(1234.5)).toMatch(/^1\s234,5$/u);
    expect(wordsFor('en').number(1234.5)).toBe('1,234.5');
    const at = Date.UTC(2026, 11, 1, 10, 0);
    expect(wordsFor('nl').dateTime(at)).toBe('1 dec 2026, 11:00');
    expect(wordsFor('fr').date(at)).toBe('1 déc. 2026');
  });

  it('a wall-clock time of the API stays at its hour', () => {
    expect(wordsFor('nl').wallClock('2026-12-01 11:00:00')).toBe('1 dec 2026, 11:00');
    expect(wordsFor('en').wallClock('2026-07-01 09:30:00')).toBe('1 Jul 2026, 09:30');
    expect(wordsFor('en').wallClock('soon')).toBe('soon');
  });

  it('a create sent at an unknown time reads right in every language', () => {
    const said = (language: 'en' | 'nl' | 'fr', sentAt: string) =>
      wordsFor(language).t('rows.outcome.unknown', { sentAt, answer: 'x' });
    expect(said('en', 'none')).toMatch(/^the order was sent at an unknown time but /);
    expect(said('en', '1 Dec 2026, 11:00')).toMatch(
      /^the order was sent at 1 Dec 2026, 11:00 but /,
    );
    expect(said('fr', 'none')).toMatch(/^La commande a été envoyée à une date inconnue, mais /);
    expect(said('fr', '1 déc. 2026, 11:00')).toMatch(/^La commande a été envoyée le 1 déc/);
    expect(said('nl', 'none')).toMatch(
      /^De opdracht werd verstuurd op een onbekend tijdstip, maar /,
    );
  });

  it('lists join in the language', () => {
    expect(wordsFor('nl').list(['a', 'b', 'c'])).toBe('a, b en c');
    expect(wordsFor('fr').list(['a', 'b'])).toBe('a et b');
  });
});
