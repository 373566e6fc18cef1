/**
 * After an import's summary, the rows not created and why — row, column and message, as
 * `validate` shows them — read back from each sheet's report.csv: once a report is written, the
 * rows' results live there alone (Redis forgets them).
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream';

import { parse } from 'csv-parse';

import { type Words, wordsFor } from '../../language/words.js';
import type { Summary } from '../../report/report.js';
import { restoreCell } from '../../sheets/excel-text.js';
import type { Paint } from '../paint.js';
import { shortPath } from '../setup.js';
import { terminalText as shown } from '../terminal-text.js';

/** Rows listed per sheet: enough to see what went wrong; the rest are counted. */
export const REASONS_LISTED = 20;

/** The columns of report.csv this needs. */
interface ReportLine {
  row: string;
  line: string;
  reference: string;
  status: string;
  order_id: string;
  error: string;
}

const NOT_CREATED = new Set(['invalid', 'failed', 'needs-review']);

/** For each sheet with rows not created, those rows and why (the first `listed` of them). */
export async function printReasons(
  summaries: readonly Summary[],
  out: NodeJS.WritableStream,
  options: { cwd: string; paint: Paint; listed?: number; words?: Words },
): Promise<void> {
  const { cwd, paint } = options;
  const words = options.words ?? wordsFor('en');
  for (const summary of summaries) {
    const notCreated = summary.invalid + summary.failed + summary.needsReview;
    if (notCreated === 0 || summary.error !== undefined) continue;
    const report = join(summary.reportDir, 'report.csv');
    const where = shown(shortPath(report, cwd));
    const head = words.t('cli.reasons.head', { count: notCreated });
    let text = `\n${paint.bold(shown(shortPath(summary.sheet, cwd)))}: ${head}\n`;
    let listed = 0;
    try {
      for await (const line of notCreatedLines(report)) {
        text += rowText(line, paint, words);
        listed += 1;
        if (listed >= (options.listed ?? REASONS_LISTED)) break;
      }
    } catch (error) {
      // A file error (ENOENT…) or csv-parse's (CSV_…): the import is done, only its reasons are not.
      const code = (error as { code?: unknown }).code;
      if (typeof code !== 'string') throw error;
      text += `  ${paint.red(words.t('cli.reasons.unreadable', { file: where, code }))}\n`;
    }
    if (notCreated > listed)
      text += `  ${words.t('cli.reasons.more', { count: notCreated - listed, file: where })}\n`;
    out.write(text);
  }
}

/** One row: where it is and what became of it, then each of its problems on a line. */
function rowText(line: ReportLine, paint: Paint, words: Words): string {
  const where =
    line.line === ''
      ? words.t('cli.row', { row: line.row })
      : words.t('cli.row.line', { row: line.row, line: line.line });
  const reference =
    line.reference === ''
      ? ''
      : paint.dim(`  ${words.t('cli.row.reference', { reference: shown(line.reference) })}`);
  const order =
    line.order_id === '' ? '' : ` ${words.t('cli.row.order', { order: line.order_id })}`;
  const status = words.t('cli.status', { status: line.status.replace(/-/g, '_') });
  let text = `  ${paint.red(where)}${reference}  ${status}${order}\n`;
  const problems = line.status === 'invalid' ? problemsOf(line.error) : [line.error];
  for (const problem of problems) {
    const colon = line.status === 'invalid' ? problem.indexOf(': ') : -1;
    text +=
      colon > 0
        ? `    ${paint.bold(shown(problem.slice(0, colon)))}: ${shown(problem.slice(colon + 2))}\n`
        : `    ${shown(problem)}\n`;
  }
  return text;
}

/**
 * An invalid row's problems, which report.csv joins as `column: message | column: message`. A
 * message may itself hold ` | ` ("separated by | …"): the text is cut only where what follows
 * reads as another column and its colon.
 */
export function problemsOf(error: string): string[] {
  return error.split(/ \| (?=[^|:]{1,80}: )/);
}

/** The lines of report.csv whose row was not created, in sheet order. */
async function* notCreatedLines(path: string): AsyncGenerator<ReportLine> {
  const delimiter = await delimiterOf(path);
  const parser = pipeline(
    createReadStream(path),
    parse({ bom: true, delimiter, columns: true, relax_column_count: true }),
    // Its error reaches the loop below through the parser; a loop left early closes the file.
    () => undefined,
  );
  for await (const record of parser as AsyncIterable<Record<string, string>>) {
    const line = Object.fromEntries(
      Object.entries(record).map(([key, cell]) => [key, restoreCell(cell)]),
    ) as unknown as ReportLine;
    if (NOT_CREATED.has(line.status)) yield line;
  }
}

/** report.csv is written with the sheet's own delimiter: its header says which (`row;line;…`). */
async function delimiterOf(path: string): Promise<string> {
  const file = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await file.read(Buffer.alloc(16), 0, 16, 0);
    const head = buffer
      .subarray(0, bytesRead)
      .toString('utf8')
      .replace(/^\uFEFF/, '');
    const delimiter = head.startsWith('row') ? head.charAt(3) : '';
    return [',', ';', '\t'].includes(delimiter) ? delimiter : ',';
  } finally {
    await file.close();
  }
}
