/**
 * Which language a dashboard request is answered in (docs/design.md "Language"): `?lang=` (which
 * also sets the cookie, so that the links of the page need not carry it), then that cookie, then
 * the browser's Accept-Language, then the process's setting. Only `nl`, `fr` and `en` are taken
 * from a request; the pseudo-language is reached through the setting alone, for the tests.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

import {
  type Language,
  LANGUAGES,
  languageOfAcceptLanguage,
  type Speech,
} from '../language/languages.js';
import { type Words, wordsFor } from '../language/words.js';
import { escapeHtml } from './html.js';

export type { Speech };

/** The cookie the language switch sets: its value is one of LANGUAGES, nothing else is read. */
export const LANGUAGE_COOKIE = 'lang';
/** A choice kept for a year: it is a preference, not a session. */
const COOKIE_SECONDS = 365 * 24 * 60 * 60;

/** `nl`, `fr` or `en` exactly; anything else (`qps`, `NL`, `nl-BE`, a script) is no choice. */
export function spokenLanguage(text: unknown): Language | undefined {
  return typeof text === 'string' && (LANGUAGES as readonly string[]).includes(text)
    ? (text as Language)
    : undefined;
}

/** A cookie's value from a Cookie header, or undefined. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

/** What a request asks for: `asked` is its `?lang=`, which the answer keeps in the cookie. */
export interface RequestSpeech {
  speech: Speech;
  asked: Language | undefined;
}

export function requestSpeech(
  request: Pick<FastifyRequest, 'query' | 'headers'>,
  setting: Speech,
): RequestSpeech {
  const query = request.query as Record<string, unknown> | undefined;
  const asked = spokenLanguage(query?.lang);
  const speech =
    asked ??
    spokenLanguage(cookieValue(request.headers.cookie, LANGUAGE_COOKIE)) ??
    languageOfAcceptLanguage(request.headers['accept-language']) ??
    setting;
  return { speech, asked };
}

/** The dashboard's words in every language, made once each, and each request's choice of them. */
export class DashboardLanguages {
  readonly #words = new Map<Speech, Words>();
  readonly #chosen = new WeakMap<FastifyRequest, Words>();

  constructor(readonly setting: Speech = 'en') {}

  /** A language's words. */
  words(speech: Speech): Words {
    let words = this.#words.get(speech);
    if (words === undefined) {
      words = wordsFor(speech);
      this.#words.set(speech, words);
    }
    return words;
  }

  /** The words a request is answered in. */
  of(request: FastifyRequest): Words {
    let words = this.#chosen.get(request);
    if (words === undefined) {
      words = this.words(requestSpeech(request, this.setting).speech);
      this.#chosen.set(request, words);
    }
    return words;
  }
}

/**
 * Before every route: a `?lang=` choice kept in the cookie, and the answer said to vary with
 * what chooses its language (a shared cache must not hand a Dutch page to a French reader).
 */
export function languageHook(app: FastifyInstance, languages: DashboardLanguages): void {
  app.addHook('onRequest', async (request, reply) => {
    const { asked } = requestSpeech(request, languages.setting);
    void reply.header('vary', 'Accept-Language, Cookie');
    if (asked !== undefined) {
      void reply.header(
        'set-cookie',
        `${LANGUAGE_COOKIE}=${asked}; Path=/; Max-Age=${COOKIE_SECONDS}; SameSite=Lax; HttpOnly`,
      );
    }
  });
}

/**
 * The switch every page shows: a link per language to the same page (its query kept, `lang`
 * replaced), the current one marked. It works without the page's script.
 */
export function languageSwitch(words: Words, url: string): string {
  const here = new URL(url, 'http://dashboard.invalid');
  const links = LANGUAGES.map((language) => {
    const query = new URLSearchParams(here.search);
    query.set('lang', language);
    const current = words.language === language ? ' aria-current="true"' : '';
    const href = `${here.pathname}?${query.toString()}`;
    return `<a href="${escapeHtml(href)}" hreflang="${language}" lang="${language}"${current}>${escapeHtml(words.t(`language.${language}`))}</a>`;
  });
  return `<nav class="languages" aria-label="${escapeHtml(words.t('dashboard.language'))}">${links.join('')}</nav>`;
}
