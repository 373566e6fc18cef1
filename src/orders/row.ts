/**
 * One row's cells → the order to send, or every problem of the row at once, each naming the
 * column as the sheet names it and saying in plain words what to change.
 */
import type { Cell, Cells, SheetField } from '../sheets/columns.js';
import type { Catalogue, ConditionalField } from './catalogue.js';
import { ORDER_FIELDS, type OrderProduct } from './fields.js';
import {
  isAbsent,
  type Normalised,
  normaliseEnum,
  normaliseFiles,
  normaliseFlag,
  normaliseInteger,
  normaliseLongText,
  normaliseProducts,
  normaliseText,
  shown,
} from './normalise.js';

/** What the API receives: only the fields the row gives, in canonical form. */
export type OrderPayload = Record<string, string | number | OrderProduct[]>;

export interface ValidRow {
  order: OrderPayload;
  reference?: string;
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
const REQUIRED: ReadonlyArray<readonly [SheetField, string]> = [
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

const MAIL_FLAGS = [
  ['contact_email', 'no_contact_mail', 'the e-mail address of the contact person'],
  ['inv_mail', 'no_inv_mail', 'the e-mail address for the invoice'],
] as const;

/** Why a product category needs its extra field, in words. */
const CONDITIONAL_REASONS: Record<ConditionalField, [kind: string, ask: string]> = {
  breaker_boxes: ['an electrical inspection', 'give the number of breaker boxes'],
  units: ['priced per housing unit', 'give the number of units'],
  floors: ['priced per floor', 'give the number of floors'],
};

const INTEGER_MINIMUM: Partial<Record<SheetField, number>> = {
  habbitable_space: 0,
  breaker_boxes: 1,
  floors: 1,
  units: 1,
};

// Laravel's `email` rule takes almost anything shaped local@domain; ask a little more of users.
const EMAIL = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:".]{2,}$/u;

export function validateRow(cells: Cells, catalogue: Catalogue): RowValidation {
  const problems: RowProblem[] = [];
  const order: OrderPayload = {};
  const columnOf = (field: SheetField) => cells.get(field)?.column ?? field;
  const fail = (field: SheetField, message: string) => {
    problems.push({ column: columnOf(field), message });
  };
  const given = (field: SheetField): Cell | undefined => {
    const cell = cells.get(field);
    return cell === undefined || isAbsent(cell.value) ? undefined : cell;
  };
  const take = <T>(field: SheetField, result: Normalised<T>, cell: Cell): T | undefined => {
    if (result.ok) return result.value;
    fail(field, `${field} ${result.message} (got ${shown(cell.value)}).`);
    return undefined;
  };

  for (const [field, kind] of ORDER_FIELDS) {
    const cell = given(field);
    if (!cell) continue;
    let value: string | number | OrderProduct[] | undefined;
    if (kind === 'integer')
      value = take(field, normaliseInteger(cell.value, INTEGER_MINIMUM[field] ?? 0), cell);
    else if (kind === 'flag') value = take(field, normaliseFlag(cell.value), cell);
    else if (kind === 'products') {
      const products = normaliseProducts(cell.value, catalogue);
      if (products.ok) value = products.value;
      else for (const message of products.messages) fail(field, message);
    } else if (field in normaliseEnum) {
      value = take(field, normaliseEnum[field as keyof typeof normaliseEnum](cell.value), cell);
    } else if (field === 'remark') value = take(field, normaliseLongText(cell.value), cell);
    else value = take(field, normaliseText(cell.value), cell);
    if (value !== undefined) order[field] = value;
  }

  for (const [field, what] of REQUIRED) {
    if (given(field) === undefined) fail(field, `${field} is required: ${what}.`);
  }
  const products = order.order_products as OrderProduct[] | undefined;
  if (products?.length === 0 && given('order_products')) {
    fail('order_products', 'order_products lists no product: give at least one, e.g. EPC.');
  }
  for (const [field, flag, what] of MAIL_FLAGS) {
    if (order[flag] === 1) continue;
    const address = order[field];
    if (address === undefined && given(field) === undefined) {
      fail(field, `${field} is required: ${what}; if there is none, set ${flag} to yes.`);
    } else if (typeof address === 'string' && !EMAIL.test(address)) {
      fail(field, `${field} is not a valid e-mail address (got ${shown(address)}).`);
    }
  }
  const required = catalogue.requiredFields((products ?? []).map((p) => p.id));
  for (const [field, product] of required) {
    if (given(field) !== undefined) continue;
    const [kind, ask] = CONDITIONAL_REASONS[field];
    fail(
      field,
      `${field} is required because ${product.id} is ${kind} (category ${product.category}): ${ask}.`,
    );
  }

  let reference: string | undefined;
  const referenceCell = given('reference');
  if (referenceCell)
    reference = take('reference', normaliseText(referenceCell.value), referenceCell);
  let files: string[] = [];
  const filesCell = given('files');
  if (filesCell) files = take('files', normaliseFiles(filesCell.value), filesCell) ?? [];

  const extras = { files, ...(reference !== undefined && { reference }) };
  if (problems.length > 0) return { ok: false, problems, ...extras };
  return { ok: true, value: { order, ...extras } };
}
