/** Writes a large, realistic order sheet (and a pool of attachments) for the benchmarks. */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const STREETS = [
  'Kerkstraat',
  'Stationsstraat',
  'Dorpsstraat',
  'Molenstraat',
  'Rue Haute',
  'Grote Markt',
];
const CITIES = [
  ['Gent', '9000'],
  ['Leuven', '3000'],
  ['Liège', '4000'],
  ['Antwerpen', '2000'],
  ['Brugge', '8000'],
] as const;
const TYPES = [
  'Rijwoning / Duplex',
  'Studio / Appartement',
  'Vrijstaande woning',
  'Halfopen bebouwing',
];
/** Every order field of the API (docs/api.md), the row's own reference and its attachments: 30. */
export const HEADER = [
  'reference',
  'property_type',
  'habbitable_space',
  'address1',
  'address2',
  'city',
  'postal_code',
  'keyPickup_location',
  'contact_name',
  'contact_language',
  'contact_email',
  'contact_phone1',
  'no_contact_mail',
  'is_contact_owner',
  'invoice_to',
  'inv_company_name',
  'inv_vat',
  'inv_address1',
  'inv_address2',
  'inv_city',
  'inv_postal_code',
  'inv_mail',
  'inv_phone1',
  'no_inv_mail',
  'remark',
  'order_products',
  'breaker_boxes',
  'units',
  'floors',
  'files',
] as const;
const ATTACHMENTS = 200;
/** What each row of a generated sheet costs the API: its create and its one file's upload. */
export const REQUESTS_PER_ROW = 2;

export interface SheetShape {
  /** The file's name in `dir` (`sheet.csv`). */
  name?: string;
  /** References are `<referencePrefix><n>` (`REF-1`…). */
  referencePrefix?: string;
  /**
   * Every row invalid (its contact language is not one the API knows), references still distinct:
   * the case where a validator would hold a problem per row.
   */
  allInvalid?: boolean;
}

/** Writes `rows` rows to `<dir>/<name>`, with `<dir>/docs/` holding the attachments. */
export async function generateSheet(
  dir: string,
  rows: number,
  options: SheetShape = {},
): Promise<string> {
  await mkdir(join(dir, 'docs'), { recursive: true });
  for (let i = 0; i < ATTACHMENTS; i++) {
    await writeFile(join(dir, 'docs', `plan-${i}.pdf`), `%PDF-1.4\n% plan ${i}\n`);
  }
  const path = join(dir, options.name ?? 'sheet.csv');
  const languages = options.allInvalid ? ['de', 'es', 'it'] : ['nl', 'fr', 'en'];
  const out = createWriteStream(path);
  let buffer = `${HEADER.join(',')}\n`;
  for (let i = 1; i <= rows; i++) {
    buffer += `${row(i, options.referencePrefix ?? 'REF-', languages)}\n`;
    if (buffer.length > 1 << 16) {
      if (!out.write(buffer)) await once(out, 'drain');
      buffer = '';
    }
  }
  out.end(buffer);
  await once(out, 'finish');
  return path;
}

/**
 * Row `i`: an EPC; every third row an electrical inspection too (breaker boxes), every seventh an
 * asbestos attest of common parts (units), every eleventh an asbestos inventory (floors). The
 * invoice goes to the agency's office, where the key is picked up on every fourth row.
 */
function row(i: number, referencePrefix: string, languages: readonly string[]): string {
  const [city, postal] = CITIES[i % CITIES.length] ?? CITIES[0];
  const [officeCity, officePostal] = CITIES[(i + 2) % CITIES.length] ?? CITIES[0];
  const officeStreet = STREETS[(i + 3) % STREETS.length] ?? 'Kerkstraat';
  const officeNumber = String(1 + (i % 40));
  const products = ['EPC:1'];
  if (i % 3 === 0) products.push('ELEC-1.1');
  if (i % 7 === 0) products.push('ASB-COMMON');
  if (i % 11 === 0) products.push('ASB-INV-FLOOR:1');
  return [
    `${referencePrefix}${i}`,
    TYPES[i % TYPES.length],
    String(50 + (i % 250)),
    STREETS[i % STREETS.length],
    String(1 + (i % 180)),
    city,
    postal,
    i % 4 === 0 ? `"${officeStreet} ${officeNumber}, ${officePostal} ${officeCity}"` : '',
    `Contact ${i}`,
    languages[i % 3],
    `contact${i}@example.be`,
    `+32 470 ${String(i % 100).padStart(2, '0')} 34 56`,
    'nee',
    'contact',
    'salesman',
    'Immo Vlaanderen BV',
    `BE0${String(400_000_000 + (i % 500_000_000))}`,
    officeStreet,
    officeNumber,
    officeCity,
    officePostal,
    'facturen@example.be',
    '+32 9 123 45 67',
    '0',
    i % 10 === 0 ? '"Sleutel bij de buren, ""bel twee keer"""' : '',
    products.join('|'),
    i % 3 === 0 ? String(1 + (i % 4)) : '',
    i % 7 === 0 ? String(2 + (i % 20)) : '',
    i % 11 === 0 ? String(1 + (i % 5)) : '',
    `docs/plan-${i % ATTACHMENTS}.pdf`,
  ].join(',');
}
