/**
 * One row's cells → the order to send, or every problem of the row at once, each naming the
 * column as the sheet names it and saying in plain words what to change.
 */
import type { Cells, SheetField } from './columns.js';
import type { Catalogue, ConditionalField } from './catalogue.js';
import { ORDER_FIELDS, type OrderFieldName, type OrderProduct } from './fields.js';
import type { Mapping, SynonymField } from './mapping.js';
import {
  Invalid,
  isAbsent,
  normaliseEnum,
  normaliseFiles,
  normaliseFlag,
  normaliseInteger,
  normaliseLongText,
  normaliseProducts,
  normaliseText,
  shown,
  squash,
} from './normalise.js';

/** What the API receives: only the fields the row gives, in canonical form. */
export type OrderPayload = Partial<Record<OrderFieldName, string | number | OrderProduct[]>>;

export interface ValidRow {
  order: OrderPayload;
  reference?: string;
  /** The order already exists: only its missing attachments are to be sent. */
  orderId?: number;
  /** Attachment paths as written (slashes normalised), relative to the sheet's folder. */
  files: string[];
}

export interface RowProblem {
  /** The column as the sheet names it (the field's API name when the sheet has no such column). */
  column: string;
  message: string;
}

/**
 * The order when the row is valid; its reference and attachment list either way, so that the
 * attachments of an invalid row are checked too and every problem is told at once.
 */
export type RowValidation =
  | { ok: true; value: ValidRow }
  | { ok: false; problems: RowProblem[]; reference?: string; files: string[] };

/** What each required field is, for the message that asks for it. */
export const REQUIRED: ReadonlyArray<readonly [OrderFieldName, string]> = [
  ['property_type', 'the kind of property, e.g. "Rijwoning / Duplex"'],
  ['address1', 'the street of the property'],
  ['address2', 'the house number (and bus number) of the property'],
  ['city', 'the city of the property'],
  ['postal_code', 'the postal code of the property'],
  ['contact_name', 'the name of the contact person'],
  ['contact_language', 'the language of the contact person: nl, en or fr'],
  ['invoice_to', 'who receives the invoice: tenant, salesman or other'],
  ['is_contact_owner', 'who the contact person is: contact, yes or other'],
  ['order_products', 'the products to order, e.g. EPC|ELEC-1.1'],
];

export const MAIL_FLAGS = [
  ['contact_email', 'no_contact_mail', 'the e-mail address of the contact person'],
  ['inv_mail', 'no_inv_mail', 'the e-mail address for the invoice'],
] as const;

/** Why a product category needs its extra field, in words. */
const CONDITIONAL_REASONS: Record<ConditionalField, [kind: string, ask: string]> = {
  breaker_boxes: ['an electrical inspection', 'give the number of breaker boxes'],
  units: ['priced per housing unit', 'give the number of units'],
  floors: ['priced per floor', 'give the number of floors'],
};

const INTEGER_MINIMUM: Partial<Record<OrderFieldName, number>> = {
  habbitable_space: 0,
  breaker_boxes: 1,
  floors: 1,
  units: 1,
};

// Laravel's `email` rule takes almost anything shaped local@domain; ask a little more of users.
const EMAIL = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:".]{2,}$/u;

type Normaliser = (value: unknown) => string | number | OrderProduct[] | Invalid | Invalid[];

/** How a sheet's rows are read besides the catalogue. */
export interface RowReading {
  /** The user's mapping: its value synonyms are applied before a value is checked. */
  mapping?: Mapping | undefined;
  /**
   * Per field, what to add to the message that asks for it when a row lacks it: an unknown
   * column of the sheet looks like it, and the mapping to write (header-hints.ts).
   */
  missingHints?: ReadonlyMap<SheetField, string>;
}

/** The normaliser of each order field, chosen once rather than per row. */
function normalisers(catalogue: Catalogue, mapping?: Mapping): Array<[OrderFieldName, Normaliser]> {
  return ORDER_FIELDS.map(([field, kind]): [OrderFieldName, Normaliser] => {
    if (kind === 'integer') {
      const min = INTEGER_MINIMUM[field] ?? 0;
      return [field, (v) => normaliseInteger(v, min)];
    }
    if (kind === 'products') return [field, (v) => normaliseProducts(v, catalogue)];
    const own =
      kind === 'flag'
        ? normaliseFlag
        : field in normaliseEnum
          ? normaliseEnum[field as keyof typeof normaliseEnum]
          : undefined;
    if (own === undefined) return [field, field === 'remark' ? normaliseLongText : normaliseText];
    // A flat mapping has no words for values: its values are checked as written.
    const words = mapping !== undefined && mapping.form === 'full';
    return [field, words ? withSynonyms(field, own, mapping) : own];
  });
}

/**
 * A field's normaliser with the mapping's words for its values applied first (matched as
 * enumerations are, case and spaces ignored); a value that is neither says where words go.
 */
function withSynonyms(
  field: OrderFieldName,
  normalise: (value: unknown) => string | number | Invalid,
  mapping: Mapping,
): Normaliser {
  const words: ReadonlyMap<string, string | number> =
    mapping.values.get(field as SynonymField) ?? new Map();
  const refused = new Map<string, Invalid>();
  return (value) => {
    const word =
      words.size > 0 && (typeof value === 'string' || typeof value === 'number')
        ? words.get(squash(String(value)))
        : undefined;
    const result = normalise(word ?? value);
    if (!(result instanceof Invalid)) return result;
    let told = refused.get(result.message);
    if (told === undefined) {
      told = new Invalid(
        `${result.message}, or one of its words under "values" in ${mapping.source.file}`,
      );
      refused.set(result.message, told);
    }
    return told;
  };
}

/** Builds the row validator for a catalogue; call it once per sheet, then once per row. */
export function rowValidator(
  catalogue: Catalogue,
  reading: RowReading = {},
): (cells: Cells) => RowValidation {
  const plan = normalisers(catalogue, reading.mapping);
  const hints = reading.missingHints ?? new Map<SheetField, string>();
  return (cells) => {
    const problems: RowProblem[] = [];
    const order: OrderPayload = {};
    const refused: OrderFieldName[] = []; // given, but not usable
    const fail = (field: SheetField, message: string) => {
      problems.push({ column: cells.column(field) ?? field, message });
    };
    // Every order field the row gives ends up in `order` or in `refused`.
    const given = (field: OrderFieldName) => order[field] !== undefined || refused.includes(field);

    for (const [field, normalise] of plan) {
      const value = cells.value(field);
      if (isAbsent(value)) continue;
      const result = normalise(value);
      if (result instanceof Invalid) {
        refused.push(field);
        fail(field, `${field} ${result.message} (got ${shown(value)}).`);
      } else if (Array.isArray(result) && result[0] instanceof Invalid) {
        refused.push(field);
        for (const problem of result as Invalid[]) fail(field, problem.message);
      } else order[field] = result as string | number | OrderProduct[];
    }

    for (const [field, what] of REQUIRED) {
      if (!given(field)) fail(field, `${field} is required: ${what}${hints.get(field) ?? ''}.`);
    }
    const products = order.order_products as OrderProduct[] | undefined;
    if (products?.length === 0) {
      fail('order_products', 'order_products lists no product: give at least one, e.g. EPC.');
    }
    for (const [field, flag, what] of MAIL_FLAGS) {
      if (order[flag] === 1) continue;
      const address = order[field];
      if (!given(field)) {
        fail(field, `${field} is required: ${what}; if there is none, set ${flag} to yes.`);
      } else if (typeof address === 'string' && !EMAIL.test(address)) {
        fail(field, `${field} is not a valid e-mail address (got ${shown(address)}).`);
      }
    }
    if (products && products.length > 0) {
      for (const [field, product] of catalogue.requiredFields(products.map((p) => p.id))) {
        if (given(field)) continue;
        const [kind, ask] = CONDITIONAL_REASONS[field];
        fail(
          field,
          `${field} is required because ${product.id} is ${kind} (category ${product.category}): ${ask}.`,
        );
      }
    }

    /** A non-order column's value, when given and usable. */
    const extra = <T>(
      field: 'reference' | 'files' | 'order_id',
      normalise: (v: unknown) => T | Invalid,
    ) => {
      const value = cells.value(field);
      if (isAbsent(value)) return undefined;
      const result = normalise(value);
      if (!(result instanceof Invalid)) return result;
      fail(field, `${field} ${result.message} (got ${shown(value)}).`);
      return undefined;
    };
    const reference = extra('reference', normaliseText);
    const files = extra('files', normaliseFiles) ?? [];
    const orderId = extra('order_id', (v) => normaliseInteger(v, 1));

    const extras = reference === undefined ? { files } : { files, reference };
    if (problems.length > 0) return { ok: false, problems, ...extras };
    const value: ValidRow = { order, ...extras };
    if (orderId !== undefined) value.orderId = orderId;
    return { ok: true, value };
  };
}
