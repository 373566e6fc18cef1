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
const HEADER = [
  'reference',
  'property_type',
  'habbitable_space',
  'address1',
  'address2',
  'city',
  'postal_code',
  'contact_name',
  'contact_language',
  'contact_email',
  'contact_phone1',
  'no_contact_mail',
  'inv_company_name',
  'inv_mail',
  'no_inv_mail',
  'invoice_to',
  'is_contact_owner',
  'remark',
  'order_products',
  'breaker_boxes',
  'files',
];
const ATTACHMENTS = 200;

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
    const [city, postal] = CITIES[i % CITIES.length] ?? CITIES[0];
    const elec = i % 3 === 0;
    buffer += [
      `${options.referencePrefix ?? 'REF-'}${i}`,
      TYPES[i % TYPES.length],
      String(50 + (i % 250)),
      STREETS[i % STREETS.length],
      String(1 + (i % 180)),
      city,
      postal,
      `Contact ${i}`,
      languages[i % 3],
      `contact${i}@example.be`,
      '+32 470 12 34 56',
      'nee',
      'Immo Vlaanderen BV',
      'facturen@example.be',
      '0',
      'salesman',
      'contact',
      i % 10 === 0 ? '"Sleutel bij de buren, ""bel twee keer"""' : '',
      elec ? 'EPC|ELEC-1.1' : 'EPC:1',
      elec ? '2' : '',
      `docs/plan-${i % ATTACHMENTS}.pdf`,
    ].join(',');
    buffer += '\n';
    if (buffer.length > 1 << 16) {
      if (!out.write(buffer)) await once(out, 'drain');
      buffer = '';
    }
  }
  out.end(buffer);
  await once(out, 'finish');
  return path;
}
