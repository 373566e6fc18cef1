/**
 * `validate` on a sheet of 1,000,000 distinct rows of 30 columns, all valid, and on the same sheet
 * with every row invalid (issue 11): rows/s against raw csv-parse over the same file, and peak
 * RSS. Each of the four runs is a process of its own (validate-run.ts, raw-csv.ts), so that its
 * peak RSS is its own.
 */
import { stat } from 'node:fs/promises';

import { tempFolder } from './cleanup.js';
import { runChild } from './children.js';
import { generateSheet, HEADER } from './generate.js';
import {
  figure,
  type Line,
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

const ROWS = 1_000_000;
const MIN_RATIO = 0.5;
const MAX_RSS_MB = 200;

const spec = (key: string, label: string): LineSpec => ({
  key,
  label,
  targets: { minRatioToRawCsvParse: MIN_RATIO, maxPeakRssMB: MAX_RSS_MB },
  target: [`≥ ${MIN_RATIO} of raw csv-parse`, `≤ ${MAX_RSS_MB} MB peak RSS`],
});
const allValid = spec('validateAllValid', 'validate, every row valid (30 columns)');
const allInvalid = spec('validateAllInvalid', 'validate, every row invalid (30 columns)');

export const validateMeasure: Measure = {
  name: 'validate',
  lines: [allValid, allInvalid],
  run: async (scale) => {
    const rows = scaled(ROWS, scale);
    const folder = await tempFolder('bench-validate');
    try {
      progress(`validate: generating 2 × ${rows.toLocaleString('en')} rows…`);
      const valid = await generateSheet(folder.path, rows);
      const invalid = await generateSheet(folder.path, rows, {
        allInvalid: true,
        name: 'invalid.csv',
      });
      const bytes = (await stat(valid)).size;
      return [
        await measureSheet(allValid, valid, rows, bytes, 'valid'),
        await measureSheet(allInvalid, invalid, rows, bytes, 'invalid'),
      ];
    } finally {
      await folder.remove();
    }
  },
};

const cpuPerRow = (m: SheetRun) => `${((m.cpuMs / m.rows) * 1000).toFixed(1)} µs`;

async function measureSheet(
  which: LineSpec,
  sheet: string,
  rows: number,
  sheetBytes: number,
  expected: 'valid' | 'invalid',
): Promise<Line> {
  const before = loadNow();
  progress(
    `validate: raw csv-parse over the ${expected} sheet… (load ${before.loadavg.join(' ')})`,
  );
  const raw = await runChild<SheetRun>('raw-csv.js', { sheet });
  progress(`validate: validate over the ${expected} sheet… (load ${loadNow().loadavg.join(' ')})`);
  const own = await runChild<SheetRun>('validate-run.js', { sheet });
  const after = loadNow();
  if (own.rows !== rows || own[expected] !== rows || raw.rows !== rows) {
    throw new Error(
      `validate saw ${own.rows} rows (${own.valid} valid, ${own.invalid} invalid) and csv-parse ${raw.rows}, of ${rows} ${expected}: the bench sheet is wrong`,
    );
  }
  const ratio = perSecond(own.rows, own.ms) / perSecond(raw.rows, raw.ms);
  const rssMB = own.maxRssBytes / MB;
  const met = ratio >= MIN_RATIO && rssMB <= MAX_RSS_MB;
  const figures = {
    rows,
    columns: HEADER.length,
    sheetMB: sheetBytes / MB,
    validate: runFigures(own),
    rawCsvParse: runFigures(raw),
    ratioToRawCsvParse: ratio,
    // Less swayed by the machine's load than the ratio of rows/s, which is the target's.
    cpuRatioToRawCsvParse: raw.cpuMs / own.cpuMs,
  };
  return line(which, {
    status: met ? 'met' : 'NOT met',
    product: [
      `${figure(figures.validate.rowsPerSecond)} rows/s`,
      `${rssMB.toFixed(0)} MB peak RSS`,
      `${cpuPerRow(own)} CPU a row`,
      `${rows.toLocaleString('en')} rows`,
    ],
    peers: [
      `raw csv-parse: ${figure(figures.rawCsvParse.rowsPerSecond)} rows/s`,
      `${figures.rawCsvParse.peakRssMB.toFixed(0)} MB peak RSS`,
      `${cpuPerRow(raw)} CPU a row`,
    ],
    target: [
      `${ratio.toFixed(2)} of raw (≥ ${MIN_RATIO})`,
      `${rssMB.toFixed(0)} MB (≤ ${MAX_RSS_MB})`,
      `(in CPU time: ${figures.cpuRatioToRawCsvParse.toFixed(2)} of raw)`,
    ],
    figures,
    load: { before, after },
  });
}
