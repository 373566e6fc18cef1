/**
 * Text into HTML, for every page of the dashboard. What is shown comes from users (sheet names,
 * cells, paths) and is hostile until shown otherwise: escaped for HTML, and characters that are
 * invisible or that turn the text around (controls, bidi overrides) shown as their code point,
 * so that a cell cannot hide or disguise what is next to it.
 */
import type { RowStatus } from '../glossary.js';
import type { MessageKey, Words } from '../language/words.js';
import type { ShownRow } from './report-csv.js';

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** `&`, `<`, `>`, `"` and `'` as entities: safe in text and in quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

/**
 * C0 and C1 controls (line breaks and tabs aside), bidi embeddings, overrides and isolates, and
 * the zero-width marks: nothing a reader of an address or an error needs, all of them ways to
 * make a text read otherwise than it is.
 */
const HIDDEN =
  // eslint-disable-next-line no-control-regex -- finding controls is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]/g;

/** A user's text, safe and visible in HTML: hidden characters as `<U+202E>`, then escaped. */
export function shown(text: string): string {
  const visible = text.replace(
    HIDDEN,
    (c) => `<U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}>`,
  );
  return escapeHtml(visible);
}

/** HTML to put into a message as it is: made by the dashboard, its users' texts escaped. */
export interface Markup {
  readonly html: string;
}

export function markup(html: string): Markup {
  return { html };
}

/** A user's text (or the API's) to put into a message: verbatim, made safe by `shown`. */
export function data(text: string): Markup {
  return { html: shown(text) };
}

/**
 * A message of the catalogue as HTML: its text escaped, and each value that is markup put in
 * where its placeholder is. A value is kept out of the message until it is escaped, so that a
 * user's text can never be read as part of the catalogue's. Strings and numbers are the
 * message's own arguments (a `select`'s choice, a plural's count).
 */
export function say(
  words: Words,
  key: MessageKey,
  values: Readonly<Record<string, string | number | Markup>> = {},
): string {
  const inserted: string[] = [];
  const plain: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(values)) {
    if (typeof value === 'object') {
      plain[name] = `\uE000${inserted.length}\uE001`;
      inserted.push(value.html);
    } else plain[name] = value;
  }
  return shown(words.t(key, plain)).replace(
    /\uE000(\d+)\uE001/g,
    (_, i: string) => inserted[Number(i)] ?? '',
  );
}

/**
 * A moment as `<time>`, as the language writes it in Belgium, which the page's script rewrites
 * in the browser's own zone (24-hour clock); `time` makes the script show only the clock. A text
 * that is not a moment is shown as it is.
 */
export function timeElement(
  words: Words,
  iso: string,
  show: 'time' | 'date-time' = 'date-time',
): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return shown(iso);
  return `<time datetime="${escapeHtml(at.toISOString())}" data-show="${show}">${escapeHtml(words.dateTime(at))}</time>`;
}

/** A count as the language writes it. */
export function count(words: Words, n: number): string {
  return escapeHtml(words.number(n));
}

/** A length of time a person reads at a glance: `42 s`, `3 min 5 s`, `2 h 10 min`. */
export function duration(words: Words, ms: number): string {
  if (!(ms >= 0)) return '';
  const s = Math.round(ms / 1000);
  if (s < 60) return say(words, 'dashboard.duration.seconds', { seconds: s });
  if (s < 3600) {
    return say(words, 'dashboard.duration.minutes', {
      minutes: Math.floor(s / 60),
      seconds: s % 60,
    });
  }
  return say(words, 'dashboard.duration.hours', {
    hours: markup(count(words, Math.floor(s / 3600))),
    minutes: Math.floor((s % 3600) / 60),
  });
}

/** A row's status as its badge and the filter name it (`pending`: not final yet). */
export function statusWord(words: Words, status: RowStatus | 'pending' | undefined): string {
  const key: Record<RowStatus | 'pending' | 'all', MessageKey> = {
    created: 'dashboard.status.created',
    invalid: 'dashboard.status.invalid',
    failed: 'dashboard.status.failed',
    'needs-review': 'dashboard.status.needsReview',
    duplicate: 'dashboard.status.duplicate',
    pending: 'dashboard.status.pending',
    all: 'dashboard.status.all',
  };
  const found = key[status ?? 'all'] as MessageKey | undefined;
  return found === undefined ? shown(String(status)) : say(words, found);
}

/** A page's title: what it shows, and whose dashboard it is. */
export function titled(words: Words, page: Markup): string {
  return say(words, 'dashboard.title', { page });
}

/**
 * What a table of rows shows besides the rows' own cells: `error` false leaves out the error
 * column, for a page of rows none of which has an error (an empty column would take the width
 * the addresses need).
 */
export interface RowColumns {
  error: boolean;
}

/** The heads of a row's number and of rowCells' cells, as the sheet's page and the search show them. */
export function rowsHead(words: Words, columns: RowColumns = { error: true }): string {
  const head = (key: MessageKey, cls = '') =>
    `<th${cls === '' ? '' : ` class="${cls}"`}>${say(words, key)}</th>`;
  return [
    head('dashboard.head.row', 'n'),
    head('dashboard.head.status'),
    head('dashboard.head.reference'),
    head('dashboard.head.address'),
    head('dashboard.head.contact'),
    columns.error ? head('dashboard.head.error', 'error') : '',
    head('dashboard.head.order'),
  ].join('');
}

/** The link to a sheet's own page. */
export function sheetHref(sheetId: string): string {
  return `/sheets/${encodeURIComponent(sheetId)}`;
}

/**
 * A row's cells from its status to its order id, as the sheet page and the search show them:
 * an address wraps between its words only, an id never.
 */
export function rowCells(
  words: Words,
  row: ShownRow,
  columns: RowColumns = { error: true },
): string[] {
  const label = (key: MessageKey) => cellLabel(words, key);
  return [
    `<td class="row-status"${label('dashboard.head.status')}><span class="status ${escapeHtml(row.status)}">${statusWord(words, row.status)}</span></td>`,
    `<td class="text ref"${label('dashboard.head.reference')}>${shown(row.reference)}</td>`,
    `<td class="text address"${label('dashboard.head.address')}>${shown(row.address)}</td>`,
    `<td class="text"${label('dashboard.head.contact')}>${shown(row.contactName)}</td>`,
    columns.error
      ? `<td class="text error"${label('dashboard.head.error')}>${shown(row.error)}</td>`
      : '',
    `<td class="id"${label('dashboard.head.order')}>${shown(row.orderId)}</td>`,
  ].filter((cell) => cell !== '');
}

/**
 * A cell's column head as its attribute: on a phone's width, where a row is shown as a card
 * rather than a line of a table, the page's style writes it before the cell's value.
 */
export function cellLabel(words: Words, key: MessageKey): string {
  return ` data-label="${say(words, key)}"`;
}
