/**
 * One row's cells → the order to send, or every problem of the row at once, each naming the
 * column as the sheet names it and saying in plain words what to change.
 */
import { type MessageKey, type Words, wordsFor } from '../language/words.js';
import { type Cells, normaliseHeader, type SheetField } from './columns.js';
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
  cut,
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
  /** What a person reads: it names the column itself, and says what to write there. */
  message: string;
}

/**
 * The order when the row is valid; its reference and attachment list either way, so that the
 * attachments of an invalid row are checked too and every problem is told at once.
 */
export type RowValidation =
  | { ok: true; value: ValidRow }
  | { ok: false; problems: RowProblem[]; reference?: string; files: string[] };

/** The fields every row gives, each with the message that asks for it. */
export const REQUIRED: ReadonlyArray<readonly [OrderFieldName, MessageKey]> = [
  ['property_type', 'rows.required.property_type'],
  ['address1', 'rows.required.address1'],
  ['address2', 'rows.required.address2'],
  ['city', 'rows.required.city'],
  ['postal_code', 'rows.required.postal_code'],
  ['contact_name', 'rows.required.contact_name'],
  ['contact_language', 'rows.required.contact_language'],
  ['invoice_to', 'rows.required.invoice_to'],
  ['is_contact_owner', 'rows.required.is_contact_owner'],
  ['order_products', 'rows.required.order_products'],
];

/** The e-mail addresses a row gives unless its flag says there is none. */
export const MAIL_FLAGS = [
  ['contact_email', 'no_contact_mail', 'rows.required.contact_email'],
  ['inv_mail', 'no_inv_mail', 'rows.required.inv_mail'],
] as const;

/** Why a product category needs its extra field, in words: the product named by its name. */
const CONDITIONAL_MESSAGES: Record<ConditionalField, MessageKey> = {
  breaker_boxes: 'rows.conditional.breaker_boxes',
  units: 'rows.conditional.units',
  floors: 'rows.conditional.floors',
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
   * column of the sheet looks like it, and the mapping to write (header-hints.ts), in `words`.
   */
  missingHints?: ReadonlyMap<SheetField, string>;
  /** The words the problems are told in: the office's (English when not given). */
  words?: Words;
}

/** The words a reading tells its problems in: its own, else English. */
export function readingWords(reading: RowReading): Words {
  return reading.words ?? wordsFor('en');
}

/**
 * The normaliser of each order field, chosen once rather than per row; in ORDER_FIELDS' order,
 * which is the order of Cells.orderValues.
 */
function normalisers(catalogue: Catalogue, mapping?: Mapping): Array<[OrderFieldName, Normaliser]> {
  return ORDER_FIELDS.map(([field, kind]): [OrderFieldName, Normaliser] => {
    if (kind === 'integer') {
      const min = INTEGER_MINIMUM[field] ?? 0;
      return [field, (v) => normaliseInteger(v, min)];
    }
    if (kind === 'products') {
      const words = mapping?.values.get('order_products');
      return [field, (v) => normaliseProducts(v, catalogue, words)];
    }
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
  const refused = new Map<Invalid, Invalid>();
  return (value) => {
    const word =
      words.size > 0 && (typeof value === 'string' || typeof value === 'number')
        ? words.get(squash(String(value)))
        : undefined;
    const result = normalise(word ?? value);
    if (!(result instanceof Invalid)) return result;
    let told = refused.get(result);
    if (told === undefined) {
      told = new Invalid('rows.value.refusedOrWord', { file: mapping.source.file }, result);
      refused.set(result, told);
    }
    return told;
  };
}

/** A value a row gives whose field it is, normalised; REFUSED when given but not usable. */
type Given = string | number | OrderProduct[] | typeof REFUSED;
const REFUSED = Symbol('refused');

/**
 * What a validator knows before its first row, so that a row costs no lookup by name: each
 * order field's position in `fields`, and the messages that ask for a missing field (the sheet's
 * hints included), written once.
 */
interface Plan {
  words: Words;
  names: ColumnNames;
  fields: readonly OrderFieldName[];
  normalisers: readonly Normaliser[];
  required: ReadonlyArray<
    readonly [at: number, field: OrderFieldName, message: MessageKey, hint: string]
  >;
  mails: ReadonlyArray<{
    at: number;
    flagAt: number;
    field: OrderFieldName;
    flag: OrderFieldName;
    missing: MessageKey;
  }>;
  productsAt: number;
  conditionalAt: Readonly<Record<ConditionalField, number>>;
}

function plan(catalogue: Catalogue, reading: RowReading): Plan {
  const steps = normalisers(catalogue, reading.mapping);
  const fields = steps.map(([field]) => field);
  const at = (field: OrderFieldName) => fields.indexOf(field);
  const hints = reading.missingHints ?? new Map<SheetField, string>();
  return {
    words: readingWords(reading),
    names: mappedNames(reading.mapping),
    fields,
    normalisers: steps.map(([, normalise]) => normalise),
    required: REQUIRED.map(([field, key]) => [at(field), field, key, hints.get(field) ?? '']),
    mails: MAIL_FLAGS.map(([field, flag, missing]) => ({
      at: at(field),
      flagAt: at(flag),
      field,
      flag,
      missing,
    })),
    productsAt: at('order_products'),
    conditionalAt: { breaker_boxes: at('breaker_boxes'), units: at('units'), floors: at('floors') },
  };
}

/** Builds the row validator for a catalogue; call it once per sheet, then once per row. */
export function rowValidator(
  catalogue: Catalogue,
  reading: RowReading = {},
): (cells: Cells) => RowValidation {
  const steps = plan(catalogue, reading);
  // Each row's values, by position in the plan: rewritten whole by every row (rows are validated
  // one at a time, and nothing of this array outlives its row).
  const given: Array<Given | undefined> = new Array<Given | undefined>(steps.fields.length);
  const values: unknown[] = new Array<unknown>(steps.fields.length);
  return (cells) => {
    const problems: Pending[] = [];
    cells.orderValues(values);
    readOrderFields(steps, cells, values, given, problems);
    checkRequired(steps, catalogue, cells, given, problems);
    const { words } = steps;
    const reference = extraValue(words, cells, 'reference', normaliseText, problems);
    const files = extraValue(words, cells, 'files', normaliseFiles, problems) ?? [];
    const orderId = extraValue(words, cells, 'order_id', positiveInteger, problems);
    if (problems.length > 0) {
      const invalid: RowValidation = { ok: false, problems: told(problems, steps.names), files };
      if (reference !== undefined) invalid.reference = reference;
      return invalid;
    }
    const value: ValidRow = { order: orderOf(steps.fields, given), files };
    if (reference !== undefined) value.reference = reference;
    if (orderId !== undefined) value.orderId = orderId;
    return { ok: true, value };
  };
}

/**
 * Adds the problem of `field`'s column, its message told by `say` with the column as the sheet
 * names it (its API name when the sheet has no such column).
 */
function fail(
  problems: Pending[],
  cells: Cells,
  field: SheetField,
  say: (column: string) => string,
): void {
  problems.push({ column: cells.column(field), field, say });
}

/** A problem found, told once the row's every problem is: only a row that has any pays for it. */
interface Pending {
  /** As the row names it; undefined when the row has no such cell. */
  column: string | undefined;
  field: SheetField;
  say: (column: string) => string;
}

/** The problems of a row, each naming its column as the row, else the mapping, else the API names it. */
function told(pending: readonly Pending[], names: ColumnNames): RowProblem[] {
  return pending.map(({ column, field, say }) => {
    const named = column ?? names.get(field) ?? field;
    return { column: named, message: say(named) };
  });
}

/** Each field's column as the mapping names it: for a row that lacks the cell (a JSON object). */
type ColumnNames = ReadonlyMap<SheetField, string>;

function mappedNames(mapping: Mapping | undefined): ColumnNames {
  const names = new Map<SheetField, string>();
  const written = mapping?.form === 'full' ? mapping.json.columns : mapping?.json;
  if (mapping === undefined || typeof written !== 'object' || written === null) return names;
  for (const column of Object.keys(written)) {
    const field = mapping.columns.get(normaliseHeader(column));
    if (field !== undefined && !names.has(field)) names.set(field, column.trim());
  }
  return names;
}

/** A value's problem as a row tells it: its column, what it must be, and the value. */
function refusedValue(words: Words, invalid: Invalid, value: unknown) {
  const framed =
    invalid.key === 'rows.value.refusedOrWord'
      ? invalid
      : new Invalid('rows.value.refused', {}, invalid);
  return (column: string) => framed.text(words, { column, value: cut(value) });
}

/**
 * Every order field the row gives (`values`, as Cells.orderValues writes them) ends up in
 * `given`, normalised or REFUSED.
 */
function readOrderFields(
  { words, fields, normalisers }: Plan,
  cells: Cells,
  values: readonly unknown[],
  given: Array<Given | undefined>,
  problems: Pending[],
): void {
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i] as OrderFieldName;
    const value = values[i];
    if (isAbsent(value)) {
      given[i] = undefined;
      continue;
    }
    const result = (normalisers[i] as Normaliser)(value);
    if (result instanceof Invalid) {
      given[i] = REFUSED;
      fail(problems, cells, field, refusedValue(words, result, value));
    } else if (Array.isArray(result) && result[0] instanceof Invalid) {
      given[i] = REFUSED;
      for (const problem of result as Invalid[]) {
        fail(problems, cells, field, (column) => problem.text(words, { column }));
      }
    } else given[i] = result as string | number | OrderProduct[];
  }
}

/** What the row lacks: required fields, products, e-mail addresses, its products' own fields. */
function checkRequired(
  plan: Plan,
  catalogue: Catalogue,
  cells: Cells,
  given: ReadonlyArray<Given | undefined>,
  problems: Pending[],
): void {
  const { words } = plan;
  for (const [at, field, key, hint] of plan.required) {
    if (given[at] === undefined)
      fail(problems, cells, field, (column) => words.t(key, { column, hint }));
  }
  const listed = given[plan.productsAt];
  const products = Array.isArray(listed) ? listed : undefined;
  if (products?.length === 0) {
    fail(problems, cells, 'order_products', (column) => words.t('rows.products.none', { column }));
  }
  for (const { at, flagAt, field, flag, missing } of plan.mails) {
    if (given[flagAt] === 1) continue;
    const address = given[at];
    if (address === undefined) {
      const named = cells.column(flag) ?? plan.names.get(flag) ?? flag;
      fail(problems, cells, field, (column) => words.t(missing, { column, flag: named }));
    } else if (typeof address === 'string' && !EMAIL.test(address)) {
      const value = cut(address);
      fail(problems, cells, field, (column) => words.t('rows.email.invalid', { column, value }));
    }
  }
  if (products === undefined || products.length === 0) return;
  for (const [field, product] of catalogue.requiredFields(products.map((p) => p.id))) {
    if (given[plan.conditionalAt[field]] !== undefined) continue;
    const values = { id: product.id, product: product.name };
    fail(problems, cells, field, (column) =>
      words.t(CONDITIONAL_MESSAGES[field], { column, ...values }),
    );
  }
}

/** The order of a row without problems: the fields it gives, in the plan's order. */
function orderOf(
  fields: readonly OrderFieldName[],
  given: ReadonlyArray<Given | undefined>,
): OrderPayload {
  const order: OrderPayload = {};
  for (let i = 0; i < fields.length; i++) {
    const value = given[i];
    if (value !== undefined && value !== REFUSED) order[fields[i] as OrderFieldName] = value;
  }
  return order;
}

const positiveInteger = (value: unknown) => normaliseInteger(value, 1);

/** A non-order column's value, when given and usable. */
function extraValue<T>(
  words: Words,
  cells: Cells,
  field: 'reference' | 'files' | 'order_id',
  normalise: (v: unknown) => T | Invalid,
  problems: Pending[],
): T | undefined {
  const value = cells.value(field);
  if (isAbsent(value)) return undefined;
  const result = normalise(value);
  if (!(result instanceof Invalid)) return result;
  fail(problems, cells, field, refusedValue(words, result, value));
  return undefined;
}
