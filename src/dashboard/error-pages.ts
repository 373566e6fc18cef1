/**
 * The pages that say what went wrong and where to go instead: a sheet the dashboard does not
 * know, a query a sheet's page does not take, a path it has no page for.
 */
import type { FastifyInstance } from 'fastify';

import { ROW_STATUSES } from '../glossary.js';
import type { MessageKey, Words } from '../language/words.js';
import type { PageAssets } from './assets.js';
import { data, escapeHtml, markup, say, titled } from './html.js';
import type { DashboardLanguages } from './language.js';
import { sendFramed } from './pages.js';

/** A page that says what went wrong and where to go instead. */
export function errorPage(
  words: Words,
  heading: MessageKey,
  text: string,
  back: { href: string; key: MessageKey },
): { title: string; main: string } {
  return {
    title: titled(words, markup(say(words, heading))),
    main: `<h1>${say(words, heading)}</h1>\n<p class="sub">${text} <a href="${escapeHtml(back.href)}">${say(words, back.key)}</a></p>`,
  };
}

/** The page of a sheet this dashboard does not know. */
export function unknownSheetPage(words: Words, sheetId: string): { title: string; main: string } {
  return errorPage(
    words,
    'dashboard.unknownSheet.heading',
    say(words, 'dashboard.unknownSheet.text', { id: data(sheetId) }),
    { href: '/', key: 'dashboard.unknownSheet.back' },
  );
}

/** The page of a query this sheet's page does not take (a status not in the list, no page number). */
export function badQueryPage(words: Words, sheetId: string): { title: string; main: string } {
  // The statuses as the query writes them (`?status=needs-review`), not as the page says them.
  const statuses = markup(ROW_STATUSES.join(', '));
  return errorPage(
    words,
    'dashboard.badQuery.heading',
    say(words, 'dashboard.badQuery.text', { statuses }),
    { href: `/sheets/${encodeURIComponent(sheetId)}`, key: 'dashboard.badQuery.back' },
  );
}

/** Any path the dashboard has no page for: a page saying so, in the reader's language. */
export function notFoundRoute(
  app: FastifyInstance,
  assets: PageAssets,
  languages: DashboardLanguages,
): void {
  app.setNotFoundHandler(async (request, reply) => {
    const words = languages.of(request);
    const text = say(words, 'dashboard.notFound.text');
    const page = errorPage(words, 'dashboard.notFound.heading', text, {
      href: '/',
      key: 'dashboard.unknownSheet.back',
    });
    return sendFramed(reply, assets, { words, url: request.url }, 404, page);
  });
}
