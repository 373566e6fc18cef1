/**
 * The sandbox's create-order validation and what it stores. The provider documents no required
 * fields, so the required set is our choice (docs/design.md §2 "Rows"); the conditional ones
 * follow the documentation (./fields.ts) and the categories of the products file.
 */
import {
  type CategoryRequiredField,
  CONTACT_LANGUAGES,
  INVOICE_TO,
  IS_CONTACT_OWNER,
  ORDER_FIELDS,
  type OrderedProduct,
  PROPERTY_TYPES,
  REQUIRED_BY_CATEGORY,
} from './fields.js';
import type { ValidationErrors } from './laravel.js';
import type { ProductList } from './products.js';
import { type Rule, type RuleSet, validate } from './validator.js';

/** An order's fields as stored: strings trimmed or null, flags 0/1, counts as given. */
export type StoredOrderFields = Record<string, string | number | null | OrderedProduct[]>;

const r = {
  required: { kind: 'required' },
  nullable: { kind: 'nullable' },
  string: { kind: 'string' },
  integer: { kind: 'integer' },
  boolean: { kind: 'boolean' },
  email: { kind: 'email' },
  array: { kind: 'array' },
  max255: { kind: 'max', value: 255 },
  min0: { kind: 'min', value: 0 },
  min1: { kind: 'min', value: 1 },
  in: (values: readonly string[]): Rule => ({ kind: 'in', values }),
  requiredUnless: (other: string): Rule => ({ kind: 'requiredUnless', other, values: ['1'] }),
} as const satisfies Record<string, Rule | ((...args: never[]) => Rule)>;

const requiredText: readonly Rule[] = [r.required, r.string, r.max255];
const optionalText: readonly Rule[] = [r.nullable, r.string, r.max255];

export function orderRules(products: ProductList): RuleSet {
  const productIds = products.products.map((p) => p.id);
  const requiredBy = (field: CategoryRequiredField): Rule => ({
    kind: 'requiredIf',
    when: (data) => {
      const categories: readonly string[] = REQUIRED_BY_CATEGORY[field];
      return orderedProductIds(data).some((id) => {
        const product = products.get(id);
        return product !== undefined && categories.includes(product.category);
      });
    },
  });
  return [
    ['property_type', [r.required, r.string, r.in(PROPERTY_TYPES)]],
    ['habbitable_space', [r.nullable, r.integer, r.min0]],
    ['no_inv_mail', [r.nullable, r.boolean]],
    ['no_contact_mail', [r.nullable, r.boolean]],
    ['address1', requiredText],
    ['address2', requiredText],
    ['city', requiredText],
    ['postal_code', requiredText],
    ['contact_name', requiredText],
    ['contact_language', [r.required, r.string, r.in(CONTACT_LANGUAGES)]],
    [
      'contact_email',
      [r.requiredUnless('no_contact_mail'), r.nullable, r.string, r.email, r.max255],
    ],
    ['contact_phone1', optionalText],
    ['remark', [r.nullable, r.string]],
    ['inv_company_name', optionalText],
    ['inv_vat', optionalText],
    ['inv_address1', optionalText],
    ['inv_address2', optionalText],
    ['inv_city', optionalText],
    ['inv_postal_code', optionalText],
    ['inv_mail', [r.requiredUnless('no_inv_mail'), r.nullable, r.string, r.email, r.max255]],
    ['inv_phone1', optionalText],
    ['invoice_to', [r.required, r.string, r.in(INVOICE_TO)]],
    ['is_contact_owner', [r.required, r.string, r.in(IS_CONTACT_OWNER)]],
    ['keyPickup_location', optionalText],
    ['order_products', [r.required, r.array, r.min1]],
    ['order_products.*.id', [r.required, r.string, r.in(productIds)]],
    ['order_products.*.quantity', [r.required, r.integer, r.min1]],
    ['breaker_boxes', [requiredBy('breaker_boxes'), r.nullable, r.integer, r.min1]],
    ['floors', [requiredBy('floors'), r.nullable, r.integer, r.min1]],
    ['units', [requiredBy('units'), r.nullable, r.integer, r.min1]],
  ];
}

function orderedProductIds(data: Record<string, unknown>): string[] {
  const products = data.order_products;
  if (typeof products !== 'object' || products === null) return [];
  return Object.values(products).flatMap((item: unknown) => {
    const id = typeof item === 'object' && item !== null ? (item as { id?: unknown }).id : null;
    return typeof id === 'string' ? [id] : [];
  });
}

/**
 * Laravel's global TrimStrings and ConvertEmptyStringsToNull middleware, applied to the whole
 * decoded body before validation (so `"  "` is missing, as on the real API).
 */
export function cleanInput(value: unknown): unknown {
  if (typeof value === 'string') {
    const trimmed = value.trim();
    return trimmed === '' ? null : trimmed;
  }
  if (Array.isArray(value)) return value.map(cleanInput);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cleanInput(v)]));
  }
  return value;
}

export type OrderValidation =
  { ok: true; fields: StoredOrderFields } | { ok: false; errors: ValidationErrors };

/** Validates a cleaned create-order body and, when it passes, gives the fields to store. */
export function validateOrder(body: Record<string, unknown>, rules: RuleSet): OrderValidation {
  const errors = validate(body, rules);
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const fields: StoredOrderFields = {};
  for (const [name, kind] of ORDER_FIELDS) {
    const value = body[name];
    switch (kind) {
      case 'flag':
        fields[name] = value === true || value === 1 || value === '1' ? 1 : 0;
        break;
      case 'integer':
        fields[name] = value === null || value === undefined ? null : Number(value);
        break;
      case 'products':
        fields[name] = Object.values(
          value as Record<string, { id: string; quantity: unknown }>,
        ).map((item) => ({ id: item.id, quantity: Number(item.quantity) }));
        break;
      case 'string':
        fields[name] = typeof value === 'string' ? value : null;
        break;
    }
  }
  return { ok: true, fields };
}
