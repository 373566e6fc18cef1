import { describe, expect, it } from 'vitest';

import { wordsFor } from '../../src/language/words.js';
import { loadCatalogue } from '../../src/orders/catalogue.js';
import { ObjectCells } from '../../src/orders/columns.js';
import { parseMappingFile } from '../../src/orders/mapping.js';
import { rowValidator } from '../../src/orders/row.js';
import { defaultProductsFile } from '../../src/package-root.js';
import { DUTCH_MAPPING } from '../helpers/dutch-sheet.js';
import { outsideMarkers } from '../helpers/pseudo.js';

const catalogue = await loadCatalogue(defaultProductsFile());
const dutchMapping = parseMappingFile(DUTCH_MAPPING, {
  kind: 'beside',
  file: '/inbox/gent/mapping.json',
});

/** A Dutch office's row, as its sheet names the columns (DUTCH_MAPPING). */
const dutchRow: Record<string, unknown> = {
  'Uw referentie': 'D-1',
  'Type woning': 'Rijhuis',
  Straat: 'Veldstraat',
  Huisnummer: '12',
  Postcode: '9000',
  Gemeente: 'Gent',
  Contactpersoon: 'Jozef Peeters',
  Taal: 'Nederlands',
  'E-mail contact': 'jozef@example.be',
  'Geen factuurmail': 'ja',
  'Factuur aan': 'verkoper',
  Eigenaar: 'contactpersoon',
  Producten: 'EPC',
};

function problemsIn(language: 'nl' | 'fr' | 'en' | 'qps', row: Record<string, unknown>) {
  const validate = rowValidator(catalogue, {
    mapping: dutchMapping,
    words: wordsFor(language),
  });
  const result = validate(new ObjectCells(row, dutchMapping.columns, new Set()));
  return result.ok ? [] : result.problems;
}

describe('a row’s problems in the office’s language', () => {
  it('the Dutch sheet is valid as written', () => {
    expect(problemsIn('nl', dutchRow)).toEqual([]);
  });

  it('names a missing house number by the sheet’s own column, in plain Dutch', () => {
    const { Huisnummer: _, ...row } = dutchRow;
    const [problem] = problemsIn('nl', { ...row, Huisnummer: ' ' });
    expect(problem).toEqual({
      column: 'Huisnummer',
      message: 'Huisnummer ontbreekt: vul het huisnummer (en busnummer) van het pand in.',
    });
  });

  it('asks for the breaker boxes by the product’s name, without API names or categories', () => {
    const problems = problemsIn('nl', { ...dutchRow, Producten: 'EPC|ELEC-1.1' });
    expect(problems).toHaveLength(1);
    const [{ column, message } = { column: '', message: '' }] = problems;
    expect(column).toBe('Zekeringkasten');
    expect(message).toBe(
      'Zekeringkasten ontbreekt: ELEC-1.1 (“Elektrische keuring woning bij verkoop (AREI)”) is een elektrische keuring; vul het aantal zekeringkasten in.',
    );
    expect(message).not.toMatch(/breaker_boxes|categor/);
  });

  it('says in French what a value must be, by the sheet’s column', () => {
    const problems = problemsIn('fr', {
      ...dutchRow,
      Zekeringkasten: 'deux',
      Producten: 'ELEC-1.1',
    });
    expect(problems.map((p) => p.message)).toEqual([
      '«\u202fZekeringkasten\u202f» doit être un nombre entier (valeur\u202f: «\u202fdeux\u202f»).',
    ]);
    const { Huisnummer: _, ...row } = dutchRow;
    expect(problemsIn('fr', row).map((p) => p.message)).toEqual([
      'Il manque «\u202fHuisnummer\u202f»\u202f: indiquez le numéro (et la boîte) du bien.',
    ]);
  });

  it('names the mapping’s words and the flag’s own column', () => {
    const { 'Geen factuurmail': _, ...row } = dutchRow;
    const problems = problemsIn('nl', { ...row, Taal: 'Duits' });
    expect(problems.map((p) => p.message)).toEqual([
      'Taal moet een van deze waarden zijn: "nl", "en", "fr", of een van de woorden die /inbox/gent/mapping.json daarvoor onder “values” geeft (ingevuld: “Duits”).',
      'E-mail facturatie ontbreekt: vul het e-mailadres voor de factuur in; is er geen, zet dan Geen factuurmail op ja.',
    ]);
  });

  it('in English, the sheet’s column too, and the product by its name', () => {
    const { Huisnummer: _, ...row } = dutchRow;
    const problems = problemsIn('en', { ...row, Producten: 'ELEC-1.1' });
    expect(problems.map((p) => p.message)).toEqual([
      'Huisnummer is required: the house number (and bus number) of the property.',
      'Zekeringkasten is required because ELEC-1.1 ("Elektrische keuring woning bij verkoop (AREI)") is an electrical inspection: give the number of breaker boxes.',
    ]);
  });

  it('in the pseudo-language, every problem comes from the catalogue', () => {
    const problems = problemsIn('qps', {
      Straat: { x: 1 },
      Huisnummer: 'x'.repeat(300),
      Taal: 'Duits',
      'E-mail contact': 'jozef(at)example.be',
      Producten: 'EPX|EPC:0|ELEC-1.1',
      Zekeringkasten: '0',
      Bijlagen: 7,
    });
    expect(problems.length).toBeGreaterThan(10);
    for (const { message } of problems) expect(outsideMarkers(message)).toBe('');
  });
});
