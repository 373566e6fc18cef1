/**
 * The pages' own files (assets/: page.html the overview, frame.html the other pages, page.css,
 * page.js), read once when the dashboard
 * starts. They are not TypeScript, so the build leaves them out of dist/: they are found from the
 * package root, the same folder in a checkout, an installed package ("files" in package.json)
 * and the image (which copies src/dashboard/assets).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { LANGUAGES, PSEUDO, type Speech } from '../language/languages.js';
import { CATALOGUES, type MessageKey, wordsFor } from '../language/words.js';
import { packageRoot } from '../package-root.js';
import { escapeHtml } from './html.js';
import { PLACES } from './page.js';

/** The places frame.html marks for the server, each written once in it. */
export const FRAME_PLACES = {
  title: '<!-- title -->',
  main: '<!-- main -->',
  languages: '<!-- languages -->',
} as const;

/** A text of the catalogue in page.html or frame.html (`{{dashboard.nav.imports}}`), or `{{lang}}`. */
const WORD = /\{\{([a-z]+(?:\.[A-Za-z]+)*)\}\}/g;

/** A file the dashboard serves under /assets/, with its media type. */
export interface Asset {
  type: string;
  body: string;
}

export interface PageAssets {
  /** page.html, its places not yet filled (page.ts). */
  template: string;
  /** frame.html, the frame of every other page (a sheet's, the search's, "not found"). */
  frame: string;
  /** What /assets/<name> serves, by name; nothing else is served from there. */
  files: ReadonlyMap<string, Asset>;
  /** page.html and frame.html in a language: its code and its catalogue's texts filled in. */
  spoken: ReadonlyMap<Speech, { template: string; frame: string }>;
}

/** The folder of the page's files. */
export function assetsDir(): string {
  return join(packageRoot(), 'src', 'dashboard', 'assets');
}

const SERVED: Record<string, string> = {
  'page.css': 'text/css; charset=utf-8',
  'page.js': 'text/javascript; charset=utf-8',
};

/** Reads the page's files; fails at start, naming the file, when one is missing or wrong. */
export async function loadPageAssets(dir: string = assetsDir()): Promise<PageAssets> {
  const template = await readFile(join(dir, 'page.html'), 'utf8');
  const frame = await readFile(join(dir, 'frame.html'), 'utf8');
  const holds = (text: string, name: string, places: Record<string, string>) => {
    for (const place of Object.values(places)) {
      if (text.split(place).length !== 2) {
        throw new Error(`${join(dir, name)} must hold ${place} once`);
      }
    }
  };
  holds(template, 'page.html', { ...PLACES, languages: FRAME_PLACES.languages });
  holds(frame, 'frame.html', FRAME_PLACES);
  for (const [text, name] of [
    [template, 'page.html'],
    [frame, 'frame.html'],
  ] as const) {
    const unknown = [...text.matchAll(WORD)].find(
      ([, key = '']) => key !== 'lang' && !(key in CATALOGUES.en),
    );
    if (unknown !== undefined) throw new Error(`${join(dir, name)}: no message ${unknown[0]}`);
  }
  const spoken = new Map<Speech, { template: string; frame: string }>();
  const speeches: readonly Speech[] = [...LANGUAGES, PSEUDO];
  for (const speech of speeches) {
    spoken.set(speech, {
      template: inLanguage(template, speech),
      frame: inLanguage(frame, speech),
    });
  }
  const files = new Map<string, Asset>();
  for (const [name, type] of Object.entries(SERVED)) {
    files.set(name, { type, body: await readFile(join(dir, name), 'utf8') });
  }
  return { template, frame, files, spoken };
}

/** A page's `{{…}}` filled: its language's code, and its catalogue's texts, escaped. */
function inLanguage(page: string, speech: Speech): string {
  const words = wordsFor(speech);
  return page.replace(WORD, (_, key: string) =>
    key === 'lang' ? speech : escapeHtml(words.t(key as MessageKey)),
  );
}

/** frame.html with its title and main part, both HTML the caller has escaped. */
export function fillFrame(frame: string, title: string, main: string): string {
  // Functions, not strings: `$&` or `$'` in a user's text must stay text.
  return frame.replace(FRAME_PLACES.title, () => title).replace(FRAME_PLACES.main, () => main);
}

/** A page with its language switch (language.ts) in its place. */
export function withLanguages(page: string, languages: string): string {
  return page.replace(FRAME_PLACES.languages, () => languages);
}
