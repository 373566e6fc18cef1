/**
 * What a sheet's reading tells beside its rows' problems (its warnings, and what a row lacking a
 * field is told of a column that looks like it), in the words it is read with.
 */
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import type { Speech } from '../../src/language/languages.js';
import { wordsFor } from '../../src/language/words.js';
import { loadCatalogue } from '../../src/orders/catalogue.js';
import { parseMappingFile } from '../../src/orders/mapping.js';
import { defaultProductsFile } from '../../src/package-root.js';
import { readSheet, type RowResult } from '../../src/sheets/read-sheet.js';
import { put, tempDir } from '../helpers/files.js';
import { outsideMarkers } from '../helpers/pseudo.js';

const catalogue = await loadCatalogue(defaultProductsFile());
const dir = await tempDir('sheet-language-');
const mappingFile = join(dir, 'mapping.json');
const mapping = parseMappingFile(
  { columns: { Straat: 'address1', Nr: 'address2' } },
  { kind: 'beside', file: mappingFile },
);
const header =
  'reference;property_type;Straat;Nr;Gemeente;postal_code;contact_name;contact_language;contact_email;inv_mail;invoice_to;is_contact_owner;order_products;';
const row =
  'R-1;Andere;Veldstraat;12;Gent;9000;An;nl;an@example.be;f@example.be;tenant;contact;EPC;x;extra';
const sheet = await put(dir, 'orders.csv', `${header}\n${row}\n`);

async function readIn(language: Speech) {
  const opened = await readSheet(sheet, {
    catalogue,
    maxAttachmentBytes: 1 << 20,
    mapping,
    words: wordsFor(language),
  });
  const rows: RowResult[] = [];
  for await (const batch of opened.batches) rows.push(...batch);
  const [first] = rows;
  return { warnings: opened.warnings, problems: first?.ok === false ? first.problems : [] };
}

describe('a sheet’s warnings in the words it is read with', () => {
  it('in Dutch', async () => {
    const { warnings, problems } = await readIn('nl');
    expect(warnings).toEqual([
      `Gelezen met de mapping ${mappingFile} (naast de lijst): kolommen "Straat" → address1, "Nr" → address2.`,
      `De kolom "Gemeente" werd genegeerd: dat is geen veld van een opdracht. Bedoelt u city? Voeg "Gemeente": "city" toe onder “columns” in ${mappingFile}.`,
      '1 rij heeft waarden in een kolom zonder naam (kolom N); die worden genegeerd: geef de kolom een naam in de rij met kolomnamen.',
    ]);
    expect(problems.map((p) => p.message)).toEqual([
      'Deze rij heeft 1 cel meer dan er kolomnamen zijn: geef die kolom een naam in de rij met kolomnamen, of maak de cel leeg.',
      `city ontbreekt: vul de gemeente van het pand in; staat dat in de kolom “Gemeente”, voeg "Gemeente": "city" toe onder “columns” in ${mappingFile}.`,
    ]);
  });

  it('in French', async () => {
    const { warnings } = await readIn('fr');
    expect(warnings[1]).toBe(
      `Colonne ignorée, car elle ne correspond à aucun champ de commande\u202f: "Gemeente". Vouliez-vous dire city\u202f? Ajoutez "Gemeente": "city" sous «\u202fcolumns\u202f» dans ${mappingFile}.`,
    );
  });

  it('in the pseudo-language, every word is the catalogue’s', async () => {
    const { warnings, problems } = await readIn('qps');
    const texts = [...warnings, ...problems.map((p) => p.message)];
    expect(texts).toHaveLength(5);
    for (const text of texts) expect(outsideMarkers(text)).toBe('');
  });
});
