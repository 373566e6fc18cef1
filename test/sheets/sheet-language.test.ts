/**
 * What a person reads of a sheet that cannot be read, in Dutch, French and English (docs/design.md
 * "Language"): real sheets read by the real readers, their SheetError said in each language; its
 * `message` stays English for the log. And the whole of failed/…/error.txt in the pseudo-language:
 * every sentence from the catalogue, nothing outside its markers but data.
 */
import { describe, expect, it } from 'vitest';

import { errorText } from '../../src/intake/failed.js';
import type { Speech } from '../../src/language/languages.js';
import { wordsFor } from '../../src/language/words.js';
import { parseMappingFile } from '../../src/orders/mapping.js';
import { SheetError, sheetText } from '../../src/sheets/errors.js';
import { readRecords } from '../../src/sheets/records.js';
import { put, tempDir } from '../helpers/files.js';
import { unmarked } from '../helpers/pseudo.js';
import { rawZip } from '../helpers/zip.js';

const dir = await tempDir('sheet-language-');
const MAPPING = parseMappingFile(
  { columns: { Straat: 'address1' } },
  { kind: 'beside', file: '/offices/gent/mapping.json' },
);

/** The SheetError a sheet of `name` holding `content` is refused with, read to its end. */
async function refusal(
  name: string,
  content: string | Buffer,
  mapping = undefined as typeof MAPPING | undefined,
): Promise<SheetError> {
  const path = await put(dir, name, content);
  const error = await (async () => {
    const sheet = await readRecords(path, mapping);
    for await (const _ of sheet.batches);
  })().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(SheetError);
  return error as SheetError;
}

const said = (error: SheetError, language: Speech) => sheetText(wordsFor(language), error);

describe('a sheet that cannot be read, said in the reader’s language', () => {
  it('a CSV with no header row', async () => {
    const error = await refusal('blank.csv', '\n;;;\n\n');
    expect(error.message).toBe('the sheet has no header row: it holds only blank lines.');
    expect(said(error, 'en')).toBe(error.message);
    expect(said(error, 'nl')).toBe(
      'de lijst heeft geen rij met kolomnamen: er staan alleen lege regels in.',
    );
    expect(said(error, 'fr')).toBe(
      'la liste n’a pas de ligne d’en-tête\u202f: elle ne contient que des lignes vides.',
    );
  });

  it('broken JSON, at its line, with the parser’s own words as data', async () => {
    const error = await refusal('broken.json', '[\n  {"city": "Gent"},\n  {"city": }\n]\n');
    expect(error.line).toBe(3);
    expect(error.message).toMatch(/^line 3: the JSON is broken in order 2: \S/);
    const detail = error.message.replace(/^line 3: the JSON is broken in order 2: /, '');
    expect(said(error, 'nl')).toBe(`regel 3: de JSON klopt niet in opdracht 2: ${detail}`);
    expect(said(error, 'fr')).toBe(
      `ligne 3\u202f: le JSON est erroné dans la commande 2\u202f: ${detail}`,
    );
  });

  it('a file named .xlsx that is no workbook', async () => {
    const error = await refusal('orders.xlsx', 'address1;city\nKerkstraat 1;Gent\n');
    expect(error.message).toBe(
      'this file is not an Excel workbook (.xlsx): open it in Excel and save it again as .xlsx, or save it as CSV.',
    );
    expect(said(error, 'nl')).toBe(
      'dit bestand is geen Excel-werkmap (.xlsx): open het bestand in Excel en sla het opnieuw op als .xlsx, of als CSV.',
    );
    expect(said(error, 'fr')).toBe(
      'ce fichier n’est pas un classeur Excel (.xlsx)\u202f: ouvrez-le dans Excel et enregistrez-le à nouveau en .xlsx, ou enregistrez-le en CSV.',
    );
  });

  it('a header that names no field, with the mapping it was read with', async () => {
    const error = await refusal('unknown.csv', 'Foo;Bar\n1;2\n', MAPPING);
    expect(error.message).toBe(
      'line 1: the header row names no order field ("Foo", "Bar") (the mapping /offices/gent/mapping.json (beside the sheet) maps none of them): the row above the orders must name the columns, e.g. address1, city, order_products; or map your own names in /offices/gent/mapping.json, like { "columns": { "Straat": "address1" } }.',
    );
    expect(said(error, 'nl')).toBe(
      'regel 1: de rij met kolomnamen bevat geen enkel veld van een opdracht ("Foo", "Bar") (de mapping /offices/gent/mapping.json (naast de lijst) koppelt geen van die namen aan een veld): de rij boven de opdrachten moet de kolommen benoemen, bv. address1, city, order_products; of koppel uw eigen kolomnamen aan die velden in /offices/gent/mapping.json, zoals { "columns": { "Straat": "address1" } }.',
    );
  });

  it('a header that names no field, read without a mapping: where to write one, in the reader’s words', async () => {
    const error = await refusal('geen.csv', 'Foo;Bar\n1;2\n');
    expect(error.message).toContain(
      'or map your own names in a mapping.json beside the sheet, like',
    );
    expect(said(error, 'nl')).toContain(
      'of koppel uw eigen kolomnamen aan die velden in een mapping.json naast de lijst, zoals',
    );
    expect(said(error, 'qps')).toContain('⟦a mapping.json beside the sheet⟧');
  });

  it('a header that names no field but looks like some: the advice in the reader’s words', async () => {
    const error = await refusal('lijkt.csv', 'Postcode;Gemeente\n9000;Gent\n');
    expect(error.message).toMatch(
      /To map your own names, add \{ "columns": .* \} to a mapping\.json beside the sheet\.$/,
    );
    expect(said(error, 'nl')).toMatch(
      /voeg \{ "columns": .* \} toe aan een mapping\.json naast de lijst\.$/,
    );
    expect(said(error, 'qps')).toMatch(
      /⟦add \{ "columns": .* \} to ⟦a mapping\.json beside the sheet⟧⟧/,
    );
  });

  it('stray bytes in a UTF-8 sheet: the lines named, the plural as the language says it', async () => {
    // Mostly UTF-8 ("Liège" twenty times), but lines 3 to 9 hold a stray byte each.
    const liege = Buffer.from('R;Liège\n'.repeat(20));
    const strays = Array.from({ length: 7 }, () =>
      Buffer.concat([Buffer.from('R;Gen'), Buffer.from([0x92]), Buffer.from('t\n')]),
    );
    const bytes = Buffer.concat([Buffer.from('reference;city\nR;Gent\n'), ...strays, liege]);
    const error = await refusal('stray.csv', bytes);
    expect(error.message).toMatch(
      /^the sheet is UTF-8 except for bytes on lines 3, 4, 5, 6, 7 and 2 more lines that/,
    );
    expect(said(error, 'nl')).toMatch(
      /^de lijst is opgeslagen als UTF-8, behalve enkele onleesbare tekens op de regels 3, 4, 5, 6, 7 en nog 2 andere regels \(/,
    );
    expect(said(error, 'fr')).toMatch(
      /^la liste est en UTF-8, sauf quelques octets aux lignes 3, 4, 5, 6, 7 et 2 autres lignes qui/,
    );
  });
});

describe('error.txt in the pseudo-language', () => {
  it('has every sentence from the catalogue, and only data inside its markers', async () => {
    const errors = [
      await refusal('q-blank.csv', '\n\n'),
      await refusal('q-broken.json', '[{"city": }]'),
      await refusal('q-book.xlsx', 'not a zip'),
      await refusal('q-zip.xlsx', rawZip([{ name: 'hello.txt', data: Buffer.from('hi') }])),
      await refusal('q-unknown.csv', 'Foo;Bar\n1;2\n', MAPPING),
      await refusal('q-old.xls', 'x'),
      await refusal('q-format.txt', 'x'),
      await refusal('q-empty.ndjson', '\n\n'),
    ];
    const qps = wordsFor('qps');
    for (const error of errors) {
      const text = errorText(qps, 'q-sheet.csv', error, MAPPING);
      expect(text.startsWith('⟦'), text).toBe(true);
      expect(unmarked(text).trim(), text).toBe('');
      // The file and the mapping named, as data inside the markers.
      expect(text).toContain('q-sheet.csv');
      expect(text).toContain('/offices/gent/mapping.json');
    }
  });
});
