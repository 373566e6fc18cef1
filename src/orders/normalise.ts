/**
 * Cell values → order values (DESIGN §2 "Rows"): trimmed, empty = absent, numeric strings for
 * integers, yes/no words in three languages for the mail flags, enumerations matched ignoring case
 * and spaces and sent in their canonical form, product lists and attachment lists parsed.
 */
import { z } from 'zod';

import type { Catalogue } from './catalogue.js';
import {
  CONTACT_LANGUAGES,
  INVOICE_TO,
  IS_CONTACT_OWNER,
  type OrderProduct,
  PROPERTY_TYPES,
} from './fields.js';

/** A normaliser's verdict on one value: the value to send, or why it cannot be used. */
export type Normalised<T> = { ok: true; value: T } | { ok: false; message: string };

/** Empty cells, blank strings and JSON null all mean "not given". */
export function isAbsent(value: unknown): boolean {
  return (
    value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
  );
}

function fromZod<T>(schema: z.ZodType<T>, value: unknown): Normalised<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, message: parsed.error.issues[0]?.message ?? 'is not valid' };
}

const MAX_TEXT = 255;

const textSchema = z
  .union([z.string(), z.number()], { error: 'must be text' })
  .transform((v) => String(v).trim())
  .pipe(z.string().max(MAX_TEXT, { error: `is longer than ${MAX_TEXT} characters` }));

/** Free text; JSON numbers (a postal code written 9000) are taken as their digits. */
export function normaliseText(value: unknown): Normalised<string> {
  return fromZod(textSchema, value);
}

/** Remarks may be long; the provider gives no limit. */
const longTextSchema = z
  .union([z.string(), z.number()], { error: 'must be text' })
  .transform((v) => String(v).trim());

export function normaliseLongText(value: unknown): Normalised<string> {
  return fromZod(longTextSchema, value);
}

const wholeNumberSchema = z.union(
  [
    z.number().int(),
    z
      .string()
      .trim()
      .regex(/^\+?\d{1,15}$/)
      .transform(Number),
  ],
  { error: 'must be a whole number' },
);

export function normaliseInteger(value: unknown, min: number): Normalised<number> {
  const parsed = fromZod(wholeNumberSchema, value);
  if (!parsed.ok) return parsed;
  if (parsed.value < min) return { ok: false, message: `must be at least ${min}` };
  return parsed;
}

const FLAG_WORDS = new Map<string, 0 | 1>([
  ...['1', 'true', 'yes', 'y', 'ja', 'j', 'oui', 'o'].map((w) => [w, 1] as const),
  ...['0', 'false', 'no', 'n', 'nee', 'non'].map((w) => [w, 0] as const),
]);

const FLAG_MESSAGE = 'must be yes or no (1/0, true/false, ja/nee, oui/non)';

const flagSchema = z.union([z.boolean(), z.number(), z.string()]).transform((v, ctx) => {
  const flag = FLAG_WORDS.get(String(v).trim().toLowerCase());
  if (flag !== undefined) return flag;
  ctx.addIssue({ code: 'custom', message: FLAG_MESSAGE });
  return z.NEVER;
});

/** The mail flags: 1 means "there is no such e-mail address". */
export function normaliseFlag(value: unknown): Normalised<0 | 1> {
  const parsed = fromZod(flagSchema, value);
  return parsed.ok ? parsed : { ok: false, message: FLAG_MESSAGE };
}

/** `Studio/appartement`, `studio / APPARTEMENT` → `Studio / Appartement`. */
function squash(text: string): string {
  return text.replace(/\s+/g, '').toLowerCase();
}

function enumeration(allowed: readonly string[]): (value: unknown) => Normalised<string> {
  const canonical = new Map(allowed.map((v) => [squash(v), v]));
  const message = `must be one of ${allowed.map((v) => `"${v}"`).join(', ')}`;
  const schema = z.union([z.string(), z.number()]).transform((v, ctx) => {
    const found = canonical.get(squash(String(v)));
    if (found !== undefined) return found;
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  });
  return (value) => {
    const parsed = fromZod(schema, value);
    return parsed.ok ? parsed : { ok: false, message };
  };
}

export const normaliseEnum = {
  property_type: enumeration(PROPERTY_TYPES),
  contact_language: enumeration(CONTACT_LANGUAGES),
  invoice_to: enumeration(INVOICE_TO),
  is_contact_owner: enumeration(IS_CONTACT_OWNER),
};

const productItemSchema = z.union([
  z.string(),
  z.object({ id: z.union([z.string(), z.number()]), quantity: z.unknown().optional() }),
]);

/**
 * `EPC:1|ELEC-1.1` (quantity 1 when omitted), or the API's own list of `{id, quantity}`, into
 * catalogue ids in their canonical spelling. Every bad item is named, one message each.
 */
export function normaliseProducts(
  value: unknown,
  catalogue: Catalogue,
): { ok: true; value: OrderProduct[] } | { ok: false; messages: string[] } {
  const items: unknown[] =
    typeof value === 'string' ? value.split('|') : Array.isArray(value) ? value : [value];
  const products: OrderProduct[] = [];
  const problems: string[] = [];
  for (const raw of items) {
    if (typeof raw === 'string' && raw.trim() === '') continue;
    const item = productItemSchema.safeParse(raw);
    if (!item.success) {
      problems.push(
        `order_products has ${shown(raw)}, which is not a product: write ID or ID:QUANTITY.`,
      );
      continue;
    }
    const [id, quantity] =
      typeof item.data === 'string'
        ? splitItem(item.data)
        : [String(item.data.id).trim(), item.data.quantity];
    const product = catalogue.find(id);
    if (!product) {
      problems.push(
        `order_products names an unknown product "${id}" (known: ${knownIds(catalogue)}).`,
      );
      continue;
    }
    const count = isAbsent(quantity)
      ? { ok: true as const, value: 1 }
      : normaliseInteger(quantity, 1);
    if (!count.ok) {
      problems.push(
        `the quantity of ${product.id} in order_products ${count.message} (got ${shown(quantity)}).`,
      );
      continue;
    }
    products.push({ id: product.id, quantity: count.value });
  }
  if (problems.length > 0) return { ok: false, messages: problems };
  return { ok: true, value: products };
}

function splitItem(item: string): [string, string | undefined] {
  const colon = item.lastIndexOf(':');
  if (colon === -1) return [item.trim(), undefined];
  return [item.slice(0, colon).trim(), item.slice(colon + 1).trim()];
}

function knownIds(catalogue: Catalogue): string {
  const ids = catalogue.products.map((p) => p.id);
  return ids.length <= 12 ? ids.join(', ') : `${ids.slice(0, 12).join(', ')}, …`;
}

const filesSchema = z.union([z.string(), z.array(z.string(), { error: 'must list file paths' })], {
  error: 'must be file paths separated by | (or a JSON list of paths)',
});

/** `plans\a.pdf | photos/b.jpg` → `["plans/a.pdf", "photos/b.jpg"]`. */
export function normaliseFiles(value: unknown): Normalised<string[]> {
  const parsed = fromZod(filesSchema, value);
  if (!parsed.ok) return parsed;
  const list = typeof parsed.value === 'string' ? parsed.value.split('|') : parsed.value;
  return {
    ok: true,
    value: list.map((p) => p.trim().replace(/\\/g, '/')).filter((p) => p !== ''),
  };
}

/** A value as a user would recognise it in a message. */
export function shown(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const cut = text.length > 60 ? `${text.slice(0, 57)}…` : text;
  return `"${cut}"`;
}
