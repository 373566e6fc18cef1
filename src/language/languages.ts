/**
 * The languages people read the importer in (docs/design.md §2 "Language"), and how one is
 * chosen: from a process's environment the way gettext reads it, from a browser's
 * Accept-Language, or from a setting's text.
 */

/** What the importer speaks: Dutch, French, English. */
export const LANGUAGES = ['nl', 'fr', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

/**
 * Not a language: every catalogue text between ⟦ and ⟧, for translators and for the tests that
 * look for a text a person reads outside the catalogue. Chosen only by its code, never by a
 * locale or a browser.
 */
export const PSEUDO = 'qps';
/** What a process or a request is told in: a language, or the pseudo-language. */
export type Speech = Language | typeof PSEUDO;

/** How dates and numbers are written for each language's readers, in Belgium. */
export const LOCALES: Record<Speech, string> = {
  nl: 'nl-BE',
  fr: 'fr-BE',
  en: 'en-GB',
  qps: 'en-GB',
};

export const DEFAULT_LANGUAGE: Language = 'en';

/**
 * The language a locale name or a language tag names (`nl`, `NL`, `nl_BE.UTF-8`, `fr-BE`,
 * `en_GB@euro`), or undefined: `de`, `C`, `POSIX`, ``.
 */
export function languageOf(text: string): Speech | undefined {
  const code =
    text
      .trim()
      .toLowerCase()
      .split(/[-_.@]/)[0] ?? '';
  if (code === PSEUDO) return PSEUDO;
  return (LANGUAGES as readonly string[]).includes(code) ? (code as Language) : undefined;
}

/** The first entry of a `:`-separated list that names a language the importer speaks. */
export function firstSpoken(list: string): Speech | undefined {
  for (const entry of list.split(':')) {
    const language = languageOf(entry);
    if (language !== undefined) return language;
  }
  return undefined;
}

/**
 * A process's language from its environment: `LANGUAGE` (gettext's list, its first entry the
 * importer speaks), else the locale of messages (`LC_ALL`, then `LC_MESSAGES`, then `LANG`: the
 * first that is set decides, as in POSIX), else English.
 */
export function languageOfEnvironment(env: Readonly<Record<string, string | undefined>>): Speech {
  const listed = firstSpoken(env.LANGUAGE ?? '');
  if (listed !== undefined) return listed;
  const locale = [env.LC_ALL, env.LC_MESSAGES, env.LANG].find((v) => v !== undefined && v !== '');
  return (locale !== undefined ? languageOf(locale) : undefined) ?? DEFAULT_LANGUAGE;
}

/**
 * The language a browser asks for most (`Accept-Language: fr-BE,fr;q=0.9,en;q=0.8`) among the
 * importer's, or undefined when it asks for none of them. Never the pseudo-language.
 */
export function languageOfAcceptLanguage(header: string | undefined): Language | undefined {
  if (header === undefined) return undefined;
  const asked = header
    .split(',')
    .slice(0, 32)
    .map((part, index) => {
      const [tag = '', ...params] = part.split(';').map((p) => p.trim());
      const q = params.find((p) => p.toLowerCase().startsWith('q='));
      const weight = q === undefined ? 1 : Number(q.slice(2));
      return { tag, weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((a) => a.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const { tag } of asked) {
    const language = languageOf(tag);
    if (language !== undefined && language !== PSEUDO) return language;
  }
  return undefined;
}
