import { put } from './files.js';

/**
 * A Belgian agency's export as Excel on Windows saves it: Dutch headers, `;`, Windows-1252 (a
 * ë, a ç, an è), CRLF; and the mapping.json written for it (UTF-8 with a BOM, as Notepad writes
 * it). Rows D-1 and D-2 are valid through the mapping; D-3 has a language none of its words gives.
 */
export const DUTCH_HEADER = [
  'Uw referentie',
  'Type woning',
  'Straat',
  'Huisnummer',
  'Postcode',
  'Gemeente',
  'Contactpersoon',
  'Taal',
  'E-mail contact',
  'E-mail facturatie',
  'Geen factuurmail',
  'Factuur aan',
  'Eigenaar',
  'Producten',
  'Zekeringkasten',
  'Bijlagen',
  'Opmerkingen',
];

export const DUTCH_ROWS = [
  [
    'D-1',
    'Rijhuis',
    'Veldstraat',
    '12',
    '9000',
    'Gent',
    'Jozef Peeters-Maës',
    'Nederlands',
    'jozef@example.be',
    '',
    'ja',
    'verkoper',
    'contactpersoon',
    'EPC',
    '',
    'docs/plan-1.pdf',
    'sleutel bij de buren',
  ],
  [
    'D-2',
    'Appartement',
    'Rue de la Loi',
    '5 bus 3',
    '1000',
    'Brussel',
    'Françoise Lefèvre',
    ' frans ',
    'francoise@example.be',
    'facturen@example.be',
    'nee',
    'Huurder',
    'contactpersoon',
    'ELEC-1.1',
    '1',
    'docs/plan-2.pdf',
    '',
  ],
  [
    'D-3',
    'Rijhuis',
    'Kerkstraat',
    '1',
    '2000',
    'Antwerpen',
    'Piet Janssens',
    'Duits',
    'piet@example.be',
    '',
    'ja',
    'verkoper',
    'contactpersoon',
    'EPC',
    '',
    '',
    '',
  ],
];

export const DUTCH_MAPPING = {
  columns: {
    'Uw referentie': 'reference',
    'Type woning': 'property_type',
    Straat: 'address1',
    Huisnummer: 'address2',
    Postcode: 'postal_code',
    Gemeente: 'city',
    Contactpersoon: 'contact_name',
    Taal: 'contact_language',
    'E-mail contact': 'contact_email',
    'E-mail facturatie': 'inv_mail',
    'Geen factuurmail': 'no_inv_mail',
    'Factuur aan': 'invoice_to',
    Eigenaar: 'is_contact_owner',
    Producten: 'order_products',
    Zekeringkasten: 'breaker_boxes',
    Bijlagen: 'files',
  },
  values: {
    contact_language: { Nederlands: 'nl', Frans: 'fr' },
    invoice_to: { verkoper: 'salesman', huurder: 'tenant' },
    is_contact_owner: { contactpersoon: 'contact' },
    property_type: { Rijhuis: 'Rijwoning / Duplex', Appartement: 'Studio / Appartement' },
  },
};

/** Writes the sheet (`name`), its documents and, unless `mapping` is null, its mapping.json into `dir`. */
export async function writeDutchSheet(
  dir: string,
  options: { name?: string; rows?: string[][]; mapping?: unknown } = {},
): Promise<{ sheet: string; mapping: string | undefined }> {
  const rows = options.rows ?? DUTCH_ROWS;
  await put(dir, 'docs/plan-1.pdf', '%PDF-1.4 plan 1');
  await put(dir, 'docs/plan-2.pdf', '%PDF-1.4 plan 2');
  const text = [DUTCH_HEADER, ...rows].map((cells) => cells.join(';')).join('\r\n');
  const mapping =
    options.mapping === null
      ? undefined
      : await put(
          dir,
          'mapping.json',
          Buffer.concat([
            Buffer.from([0xef, 0xbb, 0xbf]),
            Buffer.from(JSON.stringify(options.mapping ?? DUTCH_MAPPING, null, 2)),
          ]),
        );
  // Last, as a copy would end: the sheet with its mapping and documents already there.
  const sheet = await put(
    dir,
    options.name ?? 'orders-nl.csv',
    Buffer.from(`${text}\r\n`, 'latin1'),
  );
  return { sheet, mapping };
}
