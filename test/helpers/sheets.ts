import { put } from './files.js';

/** The columns of the sheets tests write, in their order. */
export const COLUMNS = [
  'reference',
  'property_type',
  'address1',
  'address2',
  'city',
  'postal_code',
  'contact_name',
  'contact_language',
  'contact_email',
  'inv_mail',
  'invoice_to',
  'is_contact_owner',
  'order_products',
  'breaker_boxes',
  'files',
] as const;

export type SheetRow = Partial<Record<(typeof COLUMNS)[number], string>>;

/** A valid row; override cells to make it otherwise. */
export function sheetRow(n: number, cells: SheetRow = {}): SheetRow {
  return {
    reference: `R-${n}`,
    property_type: 'Andere',
    address1: 'Kerkstraat',
    address2: String(n),
    city: 'Gent',
    postal_code: '9000',
    contact_name: `Contact ${n}`,
    contact_language: 'nl',
    contact_email: `c${n}@example.be`,
    inv_mail: 'facturen@example.be',
    invoice_to: 'tenant',
    is_contact_owner: 'contact',
    order_products: 'EPC',
    ...cells,
  };
}

/** Writes a semicolon CSV sheet of these rows into `dir`. */
export async function writeCsvSheet(
  dir: string,
  name: string,
  rows: readonly SheetRow[],
): Promise<string> {
  const quote = (v: string) => (/[;"\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const lines = [
    COLUMNS.join(';'),
    ...rows.map((r) => COLUMNS.map((c) => quote(r[c] ?? '')).join(';')),
  ];
  return put(dir, name, `${lines.join('\r\n')}\r\n`);
}
