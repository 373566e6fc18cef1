/** How every page of the dashboard is sent: whole, uncached, under a policy allowing no inline code. */
import type { FastifyReply } from 'fastify';

import type { Words } from '../language/words.js';
import { fillFrame, type PageAssets, withLanguages } from './assets.js';
import { languageSwitch } from './language.js';

/**
 * The pages' only sources are the dashboard itself, and they run no inline script or style: a
 * text that slipped past escaping still could not run. Forms (the search) go to the dashboard only.
 */
export const PAGE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** A page of frame.html: its title and main part, both HTML already escaped. */
export interface FramedPage {
  title: string;
  main: string;
}

/** Who a page is for: the words of the language chosen for the request, and what it asked. */
export interface Reader {
  words: Words;
  /** The request's path and query, which the language switch links to again. */
  url: string;
}

/** A page in the reader's language: its switch filled in, and its language said in a header. */
export function sendHtml(
  reply: FastifyReply,
  reader: Reader,
  code: number,
  html: string,
): FastifyReply {
  return reply
    .code(code)
    .type('text/html; charset=utf-8')
    .header('content-language', reader.words.language)
    .header('content-security-policy', PAGE_POLICY)
    .header('cache-control', 'no-store')
    .send(withLanguages(html, languageSwitch(reader.words, reader.url)));
}

/** frame.html in the reader's language, holding `page`. */
export function sendFramed(
  reply: FastifyReply,
  assets: PageAssets,
  reader: Reader,
  code: number,
  page: FramedPage,
): FastifyReply {
  const frame = assets.spoken.get(reader.words.language)?.frame ?? assets.frame;
  return sendHtml(reply, reader, code, fillFrame(frame, page.title, page.main));
}
