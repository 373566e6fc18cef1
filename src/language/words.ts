/**
 * Words: what a person reads, in one language, from its catalogue (catalogue/), with ICU
 * placeholders and plurals (intl-messageformat, which leans on Intl.PluralRules: CLDR's rules),
 * and dates and numbers as the language's readers in Belgium write them (Intl).
 */
import { IntlMessageFormat } from 'intl-messageformat';

import { en } from './catalogue/en.js';
import { fr } from './catalogue/fr.js';
import { nl } from './catalogue/nl.js';
import { LOCALES, PSEUDO, type Speech } from './languages.js';

/** Every message's key: the English catalogue's, which every other one has too. */
export type MessageKey = keyof typeof en;
/** What fills a message's placeholders. */
export type MessageValues = Readonly<Record<string, string | number | Date>>;

/** Every language's catalogue, by key (the pseudo-language reads the English one). */
export const CATALOGUES: Readonly<Record<Speech, Readonly<Record<MessageKey, string>>>> = {
  en,
  nl,
  fr,
  qps: en,
};

/** Where the API's wall-clock times are (docs/api.md): Belgium. */
export const TIME_ZONE = 'Europe/Brussels';

export interface Words {
  readonly language: Speech;
  /** `nl-BE`, `fr-BE`, `en-GB`. */
  readonly locale: string;
  /** The message `key`, its placeholders filled. */
  t(key: MessageKey, values?: MessageValues): string;
  /** A whole number or a decimal, grouped as the language writes it. */
  number(value: number, options?: Intl.NumberFormatOptions): string;
  /** A day (`27 nov 2026`), in Belgium. */
  date(value: Date | number): string;
  /** A day and its time of day (`27 nov 2026 14:05`), in Belgium. */
  dateTime(value: Date | number): string;
  /**
   * A wall-clock time as the API gives it (`2026-12-01 11:00:00`, Belgian time, no zone), as a
   * day and a time of day; the text as given when it is not one.
   */
  wallClock(text: string): string;
  /** `a, b and c` in the language's words. */
  list(items: readonly string[]): string;
}

/** A language's words, its messages compiled once each, when first asked for. */
export function wordsFor(language: Speech): Words {
  const locale = LOCALES[language];
  const catalogue = CATALOGUES[language];
  const compiled = new Map<MessageKey, IntlMessageFormat>();
  const wrap = language === PSEUDO ? (text: string) => `⟦${text}⟧` : (text: string) => text;
  // Each formatter made when first used: a process of many offices makes words for each, and
  // most never write a date (making them all costs a few ms per office at start).
  const day = lazy(
    () => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: TIME_ZONE }),
  );
  const dayTime = lazy(
    () =>
      new Intl.DateTimeFormat(locale, {
        dateStyle: 'medium',
        timeStyle: 'short',
        timeZone: TIME_ZONE,
      }),
  );
  // A wall-clock time is already Belgian: written as it is, not moved by a zone.
  const wall = lazy(
    () =>
      new Intl.DateTimeFormat(locale, {
        dateStyle: 'medium',
        timeStyle: 'short',
        timeZone: 'UTC',
      }),
  );
  const lists = lazy(() => new Intl.ListFormat(locale, { type: 'conjunction' }));
  const plain = lazy(() => new Intl.NumberFormat(locale));
  return {
    language,
    locale,
    t(key, values) {
      let message = compiled.get(key);
      if (message === undefined) {
        message = new IntlMessageFormat(catalogue[key], locale, undefined, {
          ignoreTag: true,
        });
        compiled.set(key, message);
      }
      return wrap(String(message.format(values)));
    },
    // The plain format is made once: pages and progress lines write many numbers.
    number: (value, options) =>
      (options === undefined ? plain() : new Intl.NumberFormat(locale, options)).format(value),
    date: (value) => day().format(value),
    dateTime: (value) => dayTime().format(value),
    wallClock(text) {
      const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text.trim());
      if (m === null) return text;
      const [, y = 0, mo = 1, d = 1, h = 0, mi = 0, s = 0] = m.map(Number);
      const at = Date.UTC(y, mo - 1, d, h, mi, s);
      return Number.isNaN(at) ? text : wall().format(at);
    },
    list: (items) => lists().format(items),
  };
}

/** What `make` makes, made at the first call and kept. */
function lazy<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}
