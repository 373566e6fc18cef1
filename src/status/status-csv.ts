/**
 * status.csv (docs/design.md §2 "Status of imported orders"): one line per inspection of each
 * order a sheet made, in the report's delimiter with a UTF-8 BOM, every cell neutralised like
 * report.csv's; written beside report.csv through a temporary file renamed into place, so a
 * reader (the dashboard) sees the previous file or the new one, never half of one.
 */
import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { stringify } from 'csv-stringify/sync';

import type { Words } from '../language/words.js';
import { statusRead, statusText } from '../notify/status-words.js';
import { neutraliseCell } from '../sheets/excel-text.js';
import { delimiterOf, readCsvRecords, readInside } from './report-folder.js';
import { UserError } from '../errors.js';

export const STATUS_COLUMNS = [
  'row',
  'reference',
  'order_id',
  'order_status',
  'cancel_reason',
  'product_id',
  'product_name',
  'inspection_date',
  'inspector_name',
  'checked_at',
  // Added later, at the end: a status.csv written before has neither (read as empty).
  'address',
  'contact_name',
] as const;

type StatusColumn = (typeof STATUS_COLUMNS)[number];

/**
 * One line of status.csv, every value as written (the API's own, verbatim), but for the status the
 * importer adds (`not found`), kept as the importer's own value and written in the office's words.
 */
export type StatusLine = Record<StatusColumn, string>;

export const STATUS_FILE = 'status.csv';

/**
 * The lines of the folder's status.csv by order id (each order's in file order); undefined when
 * there is none. A file that cannot be read is a UserError ('report-folder.unusable'). The
 * importer's own status, written in whichever language, is read back as `not found`.
 */
export async function readStatusLines(dir: string): Promise<Map<string, StatusLine[]> | undefined> {
  const bytes = await readInside(dir, STATUS_FILE);
  if (bytes === undefined) return undefined;
  const text = bytes.toString('utf8');
  const byOrder = new Map<string, StatusLine[]>();
  const records = readCsvRecords(text, delimiterOf(text, 'row'), `${dir}/${STATUS_FILE}`);
  for (const record of records) {
    const line = Object.fromEntries(
      STATUS_COLUMNS.map((column) => [column, record[column] ?? '']),
    ) as StatusLine;
    if (line.order_id === '') continue;
    line.order_status = statusRead(line.order_status);
    const lines = byOrder.get(line.order_id) ?? [];
    lines.push(line);
    byOrder.set(line.order_id, lines);
  }
  return byOrder;
}

/**
 * Writes status.csv whole, in place of the one there (if any) in one rename: its column names as
 * they are, the status the importer adds in `words` (the office's).
 */
export async function writeStatusCsv(
  words: Words,
  dir: string,
  lines: readonly StatusLine[],
  delimiter: string,
): Promise<void> {
  const cells = (line: StatusLine) =>
    STATUS_COLUMNS.map((column) =>
      neutraliseCell(
        column === 'order_status' ? statusText(words, line.order_status) : line[column],
      ),
    );
  const text = stringify(
    [STATUS_COLUMNS.map((column) => neutraliseCell(column)), ...lines.map(cells)],
    {
      delimiter,
      bom: true,
      record_delimiter: 'windows',
      // As report.csv: any line break is quoted, so no reader takes what follows for a cell.
      quoted_match: /[\r\n]/,
    },
  );
  const tmp = join(dir, `.${STATUS_FILE}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    // `wx`: a file of our own, never written through something already there.
    await writeFile(tmp, text, { flag: 'wx' });
    await rename(tmp, join(dir, STATUS_FILE));
  } catch (error) {
    await rm(tmp, { force: true });
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new UserError(
        'report-folder.unusable',
        `${dir} is gone: its ${STATUS_FILE} cannot be written.`,
        {
          cause: error,
        },
      );
    throw error;
  }
}
