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

/** A value a row gives whose field it is, normalised; REFUSED when given but not usable. */
type Given = string | number | OrderProduct[] | typeof REFUSED;
const REFUSED = Symbol('refused');

/**
 * What a validator knows before its first row, so that a row costs no lookup by name: each
 * order field's position in `fields`, and the messages that ask for a missing field (the sheet's
 * hints included), written once.
 */
interface Plan {
  fields: readonly OrderFieldName[];
  normalisers: readonly Normaliser[];
  required: ReadonlyArray<readonly [at: number, field: OrderFieldName, message: string]>;
  mails: ReadonlyArray<{ at: number; flagAt: number; field: OrderFieldName; missing: string }>;
  productsAt: number;
  conditionalAt: Readonly<Record<ConditionalField, number>>;
}

function plan(catalogue: Catalogue, reading: RowReading): Plan {
  const steps = normalisers(catalogue, reading.mapping);
  const fields = steps.map(([field]) => field);
  const at = (field: OrderFieldName) => fields.indexOf(field);
  const hints = reading.missingHints ?? new Map<SheetField, string>();
  return {
    fields,
    normalisers: steps.map(([, normalise]) => normalise),
    required: REQUIRED.map(([field, what]) => [
      at(field),
      field,
      `${field} is required: ${what}${hints.get(field) ?? ''}.`,
    ]),
    mails: MAIL_FLAGS.map(([field, flag, what]) => ({
      at: at(field),
      flagAt: at(flag),
      field,
      missing: `${field} is required: ${what}; if there is none, set ${flag} to yes.`,
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
    const problems: RowProblem[] = [];
    cells.orderValues(values);
    readOrderFields(steps, cells, values, given, problems);
    checkRequired(steps, catalogue, cells, given, problems);
    const reference = extraValue(cells, 'reference', normaliseText, problems);
    const files = extraValue(cells, 'files', normaliseFiles, problems) ?? [];
    const orderId = extraValue(cells, 'order_id', positiveInteger, problems);
    if (problems.length > 0) {
      const invalid: RowValidation = { ok: false, problems, files };
      if (reference !== undefined) invalid.reference = reference;
      return invalid;
    }
    const value: ValidRow = { order: orderOf(steps.fields, given), files };
    if (reference !== undefined) value.reference = reference;
    if (orderId !== undefined) value.orderId = orderId;
    return { ok: true, value };
  };
}

function fail(problems: RowProblem[], cells: Cells, field: SheetField, message: string): void {
  problems.push({ column: cells.column(field) ?? field, message });
}

/**
 * Every order field the row gives (`values`, as Cells.orderValues writes them) ends up in
 * `given`, normalised or REFUSED.
 */
function readOrderFields(
  { fields, normalisers }: Plan,
  cells: Cells,
  values: readonly unknown[],
  given: Array<Given | undefined>,
  problems: RowProblem[],
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
      fail(problems, cells, field, `${field} ${result.message} (got ${shown(value)}).`);
    } else if (Array.isArray(result) && result[0] instanceof Invalid) {
      given[i] = REFUSED;
      for (const problem of result as Invalid[]) fail(problems, cells, field, problem.message);
    } else given[i] = result as string | number | OrderProduct[];
  }
}

/** What the row lacks: required fields, products, e-mail addresses, its products' own fields. */
function checkRequired(
  plan: Plan,
  catalogue: Catalogue,
  cells: Cells,
  given: ReadonlyArray<Given | undefined>,
  problems: RowProblem[],
): void {
  for (const [at, field, message] of plan.required) {
    if (given[at] === undefined) fail(problems, cells, field, message);
  }
  const listed = given[plan.productsAt];
  const products = Array.isArray(listed) ? listed : undefined;
  if (products?.length === 0) {
    fail(
      problems,
      cells,
      'order_products',
      'order_products lists no product: give at least one, e.g. EPC.',
    );
  }
  for (const { at, flagAt, field, missing } of plan.mails) {
    if (given[flagAt] === 1) continue;
    const address = given[at];
    if (address === undefined) fail(problems, cells, field, missing);
    else if (typeof address === 'string' && !EMAIL.test(address)) {
      fail(
        problems,
        cells,
        field,
        `${field} is not a valid e-mail address (got ${shown(address)}).`,
      );
    }
  }
  if (products === undefined || products.length === 0) return;
  for (const [field, product] of catalogue.requiredFields(products.map((p) => p.id))) {
    if (given[plan.conditionalAt[field]] !== undefined) continue;
    const [kind, ask] = CONDITIONAL_REASONS[field];
    fail(
      problems,
      cells,
      field,
      `${field} is required because ${product.id} is ${kind} (category ${product.category}): ${ask}.`,
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
  cells: Cells,
  field: 'reference' | 'files' | 'order_id',
  normalise: (v: unknown) => T | Invalid,
  problems: RowProblem[],
): T | undefined {
  const value = cells.value(field);
  if (isAbsent(value)) return undefined;
  const result = normalise(value);
  if (!(result instanceof Invalid)) return result;
  fail(problems, cells, field, `${field} ${result.message} (got ${shown(value)}).`);
  return undefined;
}
