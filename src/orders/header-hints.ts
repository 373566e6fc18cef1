/**
 * Hints for columns the importer does not know but that look like an order field ("Postcode" →
 * postal_code): names compared plain (case, accents, spaces, `_`, `-` and dots ignored), the
 * words Dutch, French and English sheets use for each field, and a typo or two. A hint is only
 * ever advice, with the mapping to write: a column is never mapped by a guess.
 */
import { type Words, wordsFor } from '../language/words.js';
import type { SheetField } from './columns.js';
import { ORDER_FIELDS } from './fields.js';

/** What advice needs of the mapping in use (mapping.ts's Mapping): its form, and its file. */
export interface MappingInUse {
  form: 'flat' | 'full';
  source: { file: string };
}

/** `Code postal`, `code_postal`, `Code-Postal` → `codepostal`; `Référence` → `reference`. */
export function plainName(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

/** What sheets call each field besides its API name, written plain. */
const WORDS: ReadonlyArray<readonly [SheetField, readonly string[]]> = [
  [
    'property_type',
    ['type', 'typepand', 'soortpand', 'pandtype', 'woningtype', 'typewoning', 'typebien'],
  ],
  ['habbitable_space', ['bewoonbareoppervlakte', 'oppervlakte', 'surfacehabitable', 'surface']],
  ['address1', ['straat', 'straatnaam', 'adres', 'rue', 'adresse', 'street', 'address']],
  ['address2', ['huisnummer', 'nummer', 'nr', 'numero', 'housenumber', 'number']],
  ['city', ['gemeente', 'stad', 'plaats', 'woonplaats', 'ville', 'commune', 'localite', 'town']],
  ['postal_code', ['postcode', 'codepostal', 'zip', 'zipcode', 'postalcode']],
  ['contact_name', ['naam', 'contactpersoon', 'contactnaam', 'contact', 'nom', 'name']],
  ['contact_language', ['taal', 'langue', 'language', 'contacttaal']],
  ['no_inv_mail', ['geenfactuurmail', 'geenfacturatiemail', 'pasdemailfacturation']],
  ['no_contact_mail', ['geencontactmail', 'geenmail', 'pasdemail']],
  ['contact_email', ['email', 'mail', 'emailadres', 'emailcontact', 'courriel', 'adresseemail']],
  ['contact_phone1', ['telefoon', 'tel', 'gsm', 'telephone', 'phone', 'mobile', 'portable']],
  ['remark', ['opmerking', 'opmerkingen', 'remarque', 'commentaire', 'comment', 'notes']],
  ['inv_company_name', ['bedrijf', 'firma', 'bedrijfsnaam', 'societe', 'entreprise', 'company']],
  ['inv_vat', ['btw', 'btwnummer', 'ondernemingsnummer', 'tva', 'vat']],
  [
    'inv_mail',
    ['factuuremail', 'facturatieemail', 'emailfacturatie', 'emailfacturation', 'invoiceemail'],
  ],
  ['invoice_to', ['factuuraan', 'factuurnaar', 'facturatieaan', 'facturera', 'invoiceto']],
  ['is_contact_owner', ['eigenaar', 'iseigenaar', 'proprietaire', 'owner']],
  ['keyPickup_location', ['sleutel', 'sleutels', 'sleutelophalen', 'cle', 'cles', 'keys']],
  ['order_products', ['producten', 'product', 'produits', 'produit', 'products', 'keuringen']],
  ['breaker_boxes', ['zekeringkasten', 'verdeelkasten', 'tableauxelectriques', 'breakerboxes']],
  ['floors', ['verdiepingen', 'etages']],
  ['units', ['wooneenheden', 'eenheden', 'unites']],
  ['files', ['bestanden', 'bijlagen', 'documenten', 'fichiers', 'documents', 'attachments']],
  ['reference', ['referentie', 'ref', 'dossier', 'dossiernummer', 'uwreferentie']],
];

/** Every plain word → its field: the API names first, then the words above. */
const BY_WORD: ReadonlyMap<string, SheetField> = new Map([
  ...ORDER_FIELDS.map(([name]): [string, SheetField] => [plainName(name), name]),
  ...(['reference', 'files'] as const).map((name): [string, SheetField] => [name, name]),
  ...WORDS.flatMap(([field, words]) => words.map((word): [string, SheetField] => [word, field])),
]);

/** Longer names are no typo of a field name. */
const LONGEST = 40;

/** The field an unknown column looks like, or undefined. */
export function lookalikeField(column: string): SheetField | undefined {
  const plain = plainName(column);
  if (plain === '' || plain.length > LONGEST) return undefined;
  const exact = BY_WORD.get(plain);
  if (exact !== undefined || plain.length < 5) return exact;
  // One typo in a short name, two in a long one; a name as near two fields hints at neither.
  const allowed = plain.length >= 9 ? 2 : 1;
  let best: SheetField | undefined;
  let bestDistance = allowed + 1;
  let tie = false;
  for (const [word, field] of BY_WORD) {
    if (Math.abs(word.length - plain.length) > allowed || word.length < 5) continue;
    const d = editDistance(plain, word);
    if (d < bestDistance) [best, bestDistance, tie] = [field, d, false];
    else if (d === bestDistance && field !== best) tie = true;
  }
  return tie ? undefined : best;
}

/** Levenshtein distance of two short words. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

export interface Lookalike {
  /** As the sheet names it. */
  column: string;
  field: SheetField;
}

/**
 * The unknown columns that look like a field no other column gives, each field hinted once
 * (two columns mapped to one field would make the sheet ambiguous).
 */
export function lookalikes(
  unknown: readonly string[],
  taken: ReadonlySet<SheetField> | ReadonlyMap<SheetField, unknown>,
): Lookalike[] {
  const hinted = new Set<SheetField>();
  const found: Lookalike[] = [];
  for (const column of unknown) {
    const field = lookalikeField(column);
    if (field === undefined || taken.has(field) || hinted.has(field)) continue;
    hinted.add(field);
    found.push({ column, field });
  }
  return found;
}

/** Advice names at most this many columns (the whole mapping of a sheet, mostly). */
const MAX_ADVISED = 40;

/** Where a mapping would be written, as advice names it. */
export function mappingTarget(
  mapping: MappingInUse | undefined,
  words: Words = wordsFor('en'),
): string {
  return mapping === undefined ? words.t('rows.advice.besideSheet') : mapping.source.file;
}

/**
 * The mapping to write for these columns, in the form of the mapping in use:
 * `add { "columns": { "Postcode": "postal_code" } } to a mapping.json beside the sheet`.
 */
export function mappingAdvice(
  pairs: readonly Lookalike[],
  mapping: MappingInUse | undefined,
  words: Words = wordsFor('en'),
): string {
  const entries = pairs
    .slice(0, MAX_ADVISED)
    .map(({ column, field }) => `${JSON.stringify(column.trim())}: "${field}"`)
    .join(', ');
  const target = mappingTarget(mapping, words);
  if (mapping === undefined) {
    return words.t('rows.advice.add', { entries: `{ "columns": { ${entries} } }`, target });
  }
  if (mapping.form === 'flat') return words.t('rows.advice.add', { entries, target });
  return words.t('rows.advice.addToColumns', { entries, target });
}
