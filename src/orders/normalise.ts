/**
 * Cell values → order values (docs/design.md §2 "Rows"): trimmed, empty = absent, numeric strings for
 * integers, yes/no words in three languages for the mail flags, enumerations matched ignoring case
 * and spaces and sent in their canonical form, product lists and attachment lists parsed.
 *
 * A cell arrives as `unknown` (a CSV string, or any JSON value) and each function here is the
 * parser of one kind of cell. Scalar cells are checked by hand rather than through zod: a sheet
 * of a million rows has twenty million of them, and a schema call per cell costs seconds there
 * (`npm run bench:validate`). Structured JSON cells (product lists) still go through zod.
 */
import { z } from 'zod';

import type { MessageKey, MessageValues, Words } from '../language/words.js';
import type { Catalogue } from './catalogue.js';
import {
  CONTACT_LANGUAGES,
  INVOICE_TO,
  IS_CONTACT_OWNER,
  type OrderProduct,
  PROPERTY_TYPES,
} from './fields.js';

/**
 * Why a cell's value cannot be used; returned (not thrown) so that every problem is collected.
 * It holds its message's key, not its text: the row's validator says it in the office's words,
 * naming the column as the sheet does (row.ts). A value's own problem (`rows.value.*`) says what
 * the value must be; a product list's (`rows.products.*`) is a whole sentence with a `{column}`.
 */
export class Invalid {
  constructor(
    readonly key: MessageKey,
    readonly values: MessageValues = {},
    /** A problem this one tells inside it, as its `{problem}`. */
    readonly inner?: Invalid,
  ) {}

  /** The message in `words`, with what only the row knows (`column`) added. */
  text(words: Words, more?: MessageValues): string {
    const values =
      this.inner === undefined ? this.values : { ...this.values, problem: this.inner.text(words) };
    return words.t(this.key, more === undefined ? values : { ...values, ...more });
  }
}

/** Empty cells, blank strings and JSON null all mean "not given". */
export function isAbsent(value: unknown): boolean {
  if (typeof value === 'string')
    return value.length === 0 || (!visible(value, 0) && trimmed(value) === '');
  return value === undefined || value === null;
}

/**
 * Whether the character at `i` is printable ASCII other than a space: never white space, so a
 * string that begins and ends with one is its own trim. Cells mostly do, and a sheet of a
 * million rows trims tens of millions of them.
 */
function visible(text: string, i: number): boolean {
  const code = text.charCodeAt(i);
  return code > 0x20 && code < 0x7f;
}

/** `text.trim()`, without the call when there is nothing to trim. */
function trimmed(text: string): string {
  const last = text.length - 1;
  return last >= 0 && visible(text, 0) && visible(text, last) ? text : text.trim();
}

const MAX_TEXT = 255;
const NOT_TEXT = new Invalid('rows.value.notText');
const TOO_LONG = new Invalid('rows.value.tooLong', { max: MAX_TEXT });

/** Free text; JSON numbers (a postal code written 9000) are taken as their digits. */
export function normaliseText(value: unknown, maxLength = MAX_TEXT): string | Invalid {
  let text: string;
  if (typeof value === 'string') text = trimmed(value);
  else if (typeof value === 'number' && Number.isFinite(value)) text = String(value);
  else return NOT_TEXT;
  // Counted in code points, as the API (PHP's mb_strlen) counts them.
  if (text.length > maxLength && Array.from(text).length > maxLength) return TOO_LONG;
  return text;
}

/** Remarks may be long: the provider gives no limit. */
export function normaliseLongText(value: unknown): string | Invalid {
  return normaliseText(value, Infinity);
}

const NOT_WHOLE = new Invalid('rows.value.notWhole');

export function normaliseInteger(value: unknown, min: number): number | Invalid {
  let n: number;
  if (typeof value === 'number' && Number.isSafeInteger(value)) n = value;
  else if (typeof value === 'string') {
    const text = trimmed(value);
    if (!isWhole(text)) return NOT_WHOLE;
    n = Number(text);
  } else return NOT_WHOLE;
  return n < min ? new Invalid('rows.value.atLeast', { min }) : n;
}

/** `/^\+?\d{1,15}$/`: an optional plus, then one to fifteen digits (0-9). */
function isWhole(text: string): boolean {
  const start = text.charCodeAt(0) === 0x2b ? 1 : 0;
  const digits = text.length - start;
  if (digits < 1 || digits > 15) return false;
  for (let i = start; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x30 || code > 0x39) return false;
  }
  return true;
}

export const FLAG_WORDS = new Map<string, 0 | 1>([
  ...['1', 'true', 'yes', 'y', 'ja', 'j', 'oui', 'o'].map((w) => [w, 1] as const),
  ...['0', 'false', 'no', 'n', 'nee', 'non'].map((w) => [w, 0] as const),
]);
const NOT_FLAG = new Invalid('rows.value.notFlag');

/** The mail flags: 1 means "there is no such e-mail address". */
export function normaliseFlag(value: unknown): 0 | 1 | Invalid {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value !== 'string' && typeof value !== 'number') return NOT_FLAG;
  return FLAG_WORDS.get(trimmed(String(value)).toLowerCase()) ?? NOT_FLAG;
}

/**
 * How enumerations (and a mapping's value synonyms) are matched: case and white space ignored,
 * so `Studio/appartement` and `studio / APPARTEMENT` are both `Studio / Appartement`.
 */
export function squash(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // Not printable ASCII, or an upper-case letter: something may change.
    if (code <= 0x20 || code >= 0x7f || (code >= 0x41 && code <= 0x5a)) {
      return text.replace(/\s+/g, '').toLowerCase();
    }
  }
  return text;
}

/**
 * `told`: what a value that is none of `allowed` is told; where a word alone misleads (`yes` for
 * "the owner is the API user", not "the contact is the owner"), its own message says what each
 * means, as the API documents it.
 */
function enumeration(
  allowed: readonly string[],
  told = new Invalid('rows.value.oneOf', { allowed: allowed.map((v) => `"${v}"`).join(', ') }),
): (value: unknown) => string | Invalid {
  const exact = new Set(allowed);
  const canonical = new Map(allowed.map((v) => [squash(v), v]));
  const invalid = told;
  return (value) => {
    if (typeof value !== 'string' && typeof value !== 'number') return invalid;
    const text = trimmed(String(value));
    if (exact.has(text)) return text;
    return canonical.get(squash(text)) ?? invalid;
  };
}

export const normaliseEnum = {
  property_type: enumeration(PROPERTY_TYPES),
  contact_language: enumeration(CONTACT_LANGUAGES),
  invoice_to: enumeration(INVOICE_TO, new Invalid('rows.value.invoiceTo')),
  is_contact_owner: enumeration(IS_CONTACT_OWNER, new Invalid('rows.value.isContactOwner')),
};

/** A product list item as a JSON sheet may write it: `"EPC:2"` or `{ "id": "EPC", "quantity": 2 }`. */
const productItemSchema = z.union([
  z.string(),
  z.object({ id: z.union([z.string(), z.number()]), quantity: z.unknown().optional() }),
]);

/**
 * `EPC:1|ELEC-1.1` (quantity 1 when omitted), or the API's own list of `{id, quantity}`, into
 * catalogue ids in their canonical spelling. Every bad item is named, one message each. Commas and
 * semicolons separate items too: product ids never hold them, and people type them.
 */
export function normaliseProducts(
  value: unknown,
  catalogue: Catalogue,
  /** A mapping's words for products (`values.order_products`), squashed, and the id each stands for. */
  words?: ReadonlyMap<string, string | number>,
): OrderProduct[] | Invalid[] {
  const products: OrderProduct[] = [];
  const problems: Invalid[] = [];
  const add = (written: string, quantity: unknown) => {
    const word = words === undefined || words.size === 0 ? undefined : words.get(squash(written));
    const id = word === undefined ? written : String(word);
    const product = catalogue.find(id);
    if (!product) {
      problems.push(new Invalid('rows.products.unknown', { id, known: knownIds(catalogue) }));
      return;
    }
    const count = isAbsent(quantity) ? 1 : normaliseInteger(quantity, 1);
    if (count instanceof Invalid) {
      problems.push(
        new Invalid('rows.products.quantity', { id: product.id, value: cut(quantity) }, count),
      );
      return;
    }
    products.push({ id: product.id, quantity: count });
  };
  if (typeof value === 'string') {
    for (const item of productItems(value)) if (trimmed(item) !== '') addItem(item, add);
  } else {
    for (const raw of Array.isArray(value) ? (value as unknown[]) : [value]) {
      const item = productItemSchema.safeParse(raw);
      if (!item.success) {
        problems.push(new Invalid('rows.products.notProduct', { value: cut(raw) }));
      } else if (typeof item.data === 'string') {
        if (item.data.trim() !== '') addItem(item.data, add);
      } else {
        add(String(item.data.id).trim(), item.data.quantity);
      }
    }
  }
  return problems.length > 0 ? problems : products;
}

/** `value.split(/[|,;]/)`, without a regular expression: the items of a product list. */
function productItems(value: string): string[] {
  const items: string[] = [];
  let start = 0;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code === 0x7c || code === 0x2c || code === 0x3b) {
      items.push(value.slice(start, i));
      start = i + 1;
    }
  }
  items.push(start === 0 ? value : value.slice(start));
  return items;
}

/** `ID` or `ID:QUANTITY`, split at its last colon and added. */
function addItem(item: string, add: (id: string, quantity: string | undefined) => void): void {
  const colon = item.lastIndexOf(':');
  if (colon === -1) add(trimmed(item), undefined);
  else add(trimmed(item.slice(0, colon)), trimmed(item.slice(colon + 1)));
}

function knownIds(catalogue: Catalogue): string {
  const ids = catalogue.products.map((p) => p.id);
  return ids.length <= 12 ? ids.join(', ') : `${ids.slice(0, 12).join(', ')}, …`;
}

const NOT_FILES = new Invalid('rows.value.notFiles');

/** `plans\a.pdf | photos/b.jpg` → `["plans/a.pdf", "photos/b.jpg"]`. */
export function normaliseFiles(value: unknown): string[] | Invalid {
  let list: unknown[];
  if (typeof value === 'string') list = value.includes('|') ? value.split('|') : [value];
  else if (Array.isArray(value)) list = value as unknown[];
  else return NOT_FILES;
  const paths: string[] = [];
  for (const item of list) {
    if (typeof item !== 'string') return NOT_FILES;
    const text = trimmed(item);
    const path = text.includes('\\') ? text.replace(/\\/g, '/') : text;
    if (path !== '') paths.push(path);
  }
  return paths;
}

/** A value as a user would recognise it in a message. */
export function shown(value: unknown): string {
  return `"${cut(value)}"`;
}

/** A value as a message shows it, short; the message's own language quotes it. */
export function cut(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}
