/**
 * `validate` on a workbook of 100,000 rows of 30 columns (DESIGN "Workbooks": ≤ 150 MB peak RSS at
 * any load, at ≥ 0.5 of its CSV twin's rows per second), beside its CSV twin (the same rows,
 * generated first) in the same run: rows/s and peak RSS of each, each a process of its own
 * (validate-run.ts) so that its peak RSS is its own.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';

import { tempFolder } from './cleanup.js';
import { runChild } from './children.js';
import { generateSheet, HEADER } from './generate.js';
import { workbookOf } from './generate-workbook.js';
import {
  figure,
  line,
  type LineSpec,
  loadNow,
  MB,
  type Measure,
  perSecond,
  progress,
  runFigures,
  scaled,
  type SheetRun,
} from './lines.js';

const ROWS = 100_000;
const MAX_RSS_MB = 150;
/** Of the CSV twin's rows per second, at least. */
const MIN_RATIO = 0.5;

const workbookLine: LineSpec = {
  key: 'validateWorkbook',
  label: 'validate, a workbook (.xlsx, 30 columns)',
  targets: { maxPeakRssMB: MAX_RSS_MB, minRatioToCsv: MIN_RATIO },
  target: [`≤ ${MAX_RSS_MB} MB peak RSS`, `≥ ${MIN_RATIO} of the CSV twin's rows/s`],
};

export const workbookMeasure: Measure = {
  name: 'workbook',
  aliases: ['xlsx'],
  lines: [workbookLine],
  run: async (scale) => {
    const rows = scaled(ROWS, scale);
    const folder = await tempFolder('bench-workbook');
    try {
      progress(`workbook: generating ${rows.toLocaleString('en')} rows, as CSV and as .xlsx…`);
      const csv = await generateSheet(folder.path, rows);
      const xlsx = join(folder.path, 'sheet.xlsx');
      await workbookOf(csv, xlsx);
      const before = loadNow();
      progress(`workbook: validate over the CSV… (load ${before.loadavg.join(' ')})`);
      const twin = await runChild<SheetRun>('validate-run.js', { sheet: csv });
      progress(`workbook: validate over the workbook… (load ${loadNow().loadavg.join(' ')})`);
      const own = await runChild<SheetRun>('validate-run.js', { sheet: xlsx });
      const after = loadNow();
      if (own.rows !== rows || own.valid !== rows || twin.valid !== rows) {
        throw new Error(
          `validate saw ${own.rows} rows (${own.valid} valid) in the workbook and ${twin.valid} valid in the CSV, of ${rows}: the bench sheet is wrong`,
        );
      }
      const rssMB = own.maxRssBytes / MB;
      const figures = {
        rows,
        columns: HEADER.length,
        workbookMB: (await stat(xlsx)).size / MB,
        csvMB: (await stat(csv)).size / MB,
        validateWorkbook: runFigures(own),
        validateCsv: runFigures(twin),
        ratioToCsv: perSecond(own.rows, own.ms) / perSecond(twin.rows, twin.ms),
      };
      return [
        line(workbookLine, {
          status: rssMB <= MAX_RSS_MB && figures.ratioToCsv >= MIN_RATIO ? 'met' : 'NOT met',
          product: [
            `${figure(figures.validateWorkbook.rowsPerSecond)} rows/s`,
            `${rssMB.toFixed(0)} MB peak RSS`,
            `${rows.toLocaleString('en')} rows, ${figures.workbookMB.toFixed(1)} MB`,
          ],
          peers: [
            `the CSV twin: ${figure(figures.validateCsv.rowsPerSecond)} rows/s`,
            `${figures.validateCsv.peakRssMB.toFixed(0)} MB peak RSS`,
            `${figures.csvMB.toFixed(1)} MB`,
          ],
          target: [
            `${rssMB.toFixed(0)} MB (≤ ${MAX_RSS_MB})`,
            `${figures.ratioToCsv.toFixed(2)} of the CSV twin (≥ ${MIN_RATIO})`,
          ],
          figures,
          load: { before, after },
        }),
      ];
    } finally {
      await folder.remove();
    }
  },
};
