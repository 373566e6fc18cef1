/**
 * What report.csv's `error` column and failed/ say of a sheet's invalid rows: in the office's
 * language (its context's words), every word from the catalogue; its column names stay English.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';

import type { Speech } from '../../src/language/languages.js';
import { put, tempDir } from '../helpers/files.js';
import { testPipeline } from '../helpers/pipeline.js';
import { outsideMarkers } from '../helpers/pseudo.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

/** A report file's lines, by column. */
async function readCsv(path: string): Promise<Array<Record<string, string>>> {
  return parse<Record<string, string>>(await readFile(path, 'utf8'), {
    bom: true,
    delimiter: ';',
    columns: true,
  });
}

/** Imports a sheet of one valid row and several invalid ones in `language`; its report's lines. */
async function reportIn(language: Speech) {
  const dir = await tempDir(`report-${language}-`);
  await put(dir, 'docs/folder/keep.txt', 'a folder, not a document');
  const sheet = await writeCsvSheet(dir, 'orders.csv', [
    sheetRow(1),
    sheetRow(2, { city: '', contact_language: 'de' }),
    sheetRow(3, { order_products: 'EPC|ELEC-1.1|EPX', contact_email: 'c3(at)example.be' }),
    sheetRow(4, { files: 'docs/none.pdf|docs/folder', breaker_boxes: 'twee' }),
    sheetRow(5, { reference: 'R-1', address2: '' }),
  ]);
  const t = await testPipeline({ settings: { language } });
  try {
    const progress = await t.importSheet(sheet);
    expect(progress.counts).toMatchObject({ created: 1, invalid: 4 });
    const folder = progress.reportDir ?? '';
    return {
      report: await readCsv(join(folder, 'report.csv')),
      failed: await readCsv(join(folder, 'failed/orders.csv')),
    };
  } finally {
    await t.close();
  }
}

describe('the report of a sheet’s invalid rows, in the office’s language', () => {
  it('in the pseudo-language, every word of the error column and of failed/ is the catalogue’s', async () => {
    const { report, failed } = await reportIn('qps');
    const errors = [...report, ...failed].map((line) => line.error ?? '').filter((e) => e !== '');
    expect(errors).toHaveLength(8);
    // Its machine words stay: the columns, and the row's status.
    expect(report[1]).toMatchObject({ reference: 'R-2', status: 'invalid' });
    for (const error of errors) {
      for (const problem of error.split(' | ')) expect(outsideMarkers(problem)).toBe('');
    }
  });

  it('in Dutch, naming each column and the product by its name', async () => {
    const { report } = await reportIn('nl');
    expect(report.map((line) => line.error)).toEqual([
      '',
      'contact_language moet een van deze waarden zijn: "nl", "en", "fr" (ingevuld: “de”). | city ontbreekt: vul de gemeente van het pand in.',
      'order_products bevat een onbekend product: “EPX” (bekende producten: EPC, EPC-NR, ELEC-1.1, ELEC-1.2, ELEC-2.1, ASB-ATT, ASB-COMMON, ASB-INV-FLOOR, GAS, OIL-TANK, PLAATS, WATER). | contact_email bevat geen geldig e-mailadres (ingevuld: “c3(at)example.be”): schrijf het als naam@domein.be.',
      'breaker_boxes moet een geheel getal zijn (ingevuld: “twee”). | files: “docs/none.pdf” bestaat niet naast de lijst: geef een bijlage op vanuit de map van de lijst, en zet ze samen met de lijst in de inbox. | files: “docs/folder” is een map, geen document.',
      'address2 ontbreekt: vul het huisnummer (en busnummer) van het pand in. | reference “R-1” wordt al gebruikt in rij 1: elke rij heeft een eigen referentie nodig.',
    ]);
  });

  it('a sheet imported before: each row says so in the office’s language', async () => {
    const dir = await tempDir('report-again-');
    const sheet = await writeCsvSheet(dir, 'orders.csv', [sheetRow(1), sheetRow(2, { city: '' })]);
    for (const language of ['nl', 'qps'] as const) {
      const t = await testPipeline({ settings: { language } });
      try {
        await t.importSheet(sheet);
        const again = await t.importSheet(sheet);
        expect(again.counts).toMatchObject({ duplicate: 2 });
        const report = await readCsv(join(again.reportDir ?? '', 'report.csv'));
        const errors = report.map((line) => line.error ?? '');
        if (language === 'qps') {
          for (const error of errors) expect(outsideMarkers(error)).toBe('');
        } else {
          const [created, invalid] = errors;
          expect(created).toMatch(
            /^De inhoud van deze lijst werd al eerder geïmporteerd \(lijst \S+\); opdracht \d+ werd toen voor deze rij aangemaakt\.$/,
          );
          expect(invalid).toMatch(
            /; toen werd voor deze rij geen opdracht aangemaakt \(ze was ongeldig\)/,
          );
        }
      } finally {
        await t.close();
      }
    }
  });

  it('a row the API refuses: the API’s own words quoted in the office’s sentence', async () => {
    const dir = await tempDir('report-refused-');
    const sheet = await writeCsvSheet(dir, 'orders.csv', [sheetRow(1, { order_products: 'NEW' })]);
    const t = await testPipeline({
      settings: { language: 'nl' },
      extraProducts: [{ id: 'NEW', name: 'Nieuw product', category: '9.1' }],
    });
    try {
      const progress = await t.importSheet(sheet);
      expect(progress.counts).toMatchObject({ failed: 1 });
      const report = await readCsv(join(progress.reportDir ?? '', 'report.csv'));
      expect(report[0]?.error).toMatch(/^De API weigerde de opdracht: order_products: \S/);
    } finally {
      await t.close();
    }
  });
});
