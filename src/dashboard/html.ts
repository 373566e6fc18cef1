/**
 * Text into HTML, for every page of the dashboard. What is shown comes from users (sheet names,
 * cells, paths) and is hostile until shown otherwise: escaped for HTML, and characters that are
 * invisible or that turn the text around (controls, bidi overrides) shown as their code point,
 * so that a cell cannot hide or disguise what is next to it.
 */
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

/**
 * A moment in UTC as `<time>`, in a fixed readable form that the page's script rewrites in the
 * browser's own zone and locale (24-hour clock); `time` shows only the clock. A text that is not
 * a moment is shown as it is.
 */
export function timeElement(iso: string, show: 'time' | 'date-time' = 'date-time'): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return shown(iso);
  const [date = '', clock = ''] = at.toISOString().slice(0, 19).split('T');
  const text = show === 'time' ? `${clock} UTC` : `${date} ${clock} UTC`;
  return `<time datetime="${escapeHtml(at.toISOString())}" data-show="${show}">${text}</time>`;
}

/** A count with thousands separated by thin spaces, which no locale misreads as a decimal. */
export function count(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, '\u202F');
}

/** A length of time in words a person reads at a glance: `42 s`, `3 min 5 s`, `2 h 10 min`. */
export function duration(ms: number): string {
  if (!(ms >= 0)) return '';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

/** The link to a sheet's own page. */
export function sheetHref(sheetId: string): string {
  return `/sheets/${encodeURIComponent(sheetId)}`;
}

/** A row's cells from its status to its order id, as the sheet page and the search show them. */
export function rowCells(row: ShownRow): string[] {
  return [
    `<td><span class="status ${escapeHtml(row.status)}">${escapeHtml(row.status)}</span></td>`,
    `<td class="text">${shown(row.reference)}</td>`,
    `<td class="text">${shown(row.address)}</td>`,
    `<td class="text">${shown(row.contactName)}</td>`,
    `<td class="text error">${shown(row.error)}</td>`,
    `<td>${shown(row.orderId)}</td>`,
  ];
}
