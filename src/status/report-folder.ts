/**
 * A sheet's report folder as `status` reads it: its summary.json (which sheet, when reported,
 * through which connection) and the orders its report.csv names. Both are files a person may have
 * edited: read as data to check, never trusted, and never through a link.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

import { CsvError, parse } from 'csv-parse/sync';
import { z } from 'zod';

import { AttachmentRefused, lstatIfThere, openInsideIfThere } from '../orders/open-attachment.js';
import { restoreCell } from '../sheets/excel-text.js';
import { isKnown, type KnownError, UserError } from '../errors.js';

/** What `status` needs of summary.json. */
export interface ReportedSheet {
  dir: string;
  sheetId: string;
  finishedAt: string;
  /** The connection's id (a hash of its API and token); undefined in a summary that has none. */
  connectionId?: string;
  connectionName?: string;
  /** Of the sheet's bytes as imported (to know them again on disk); undefined in an odd summary. */
  sha256?: string;
  /** Where the sheet was when reported (its archive copy, for a hot-folder sheet). */
  sheet?: string;
}

/** An order the report says a row made. */
export interface ReportedOrder {
  row: number;
  reference: string;
  orderId: number;
  /** What report.csv echoes of the row (empty in a report of a version that echoed nothing). */
  line: string;
  address: string;
  contactName: string;
}

const summarySchema = z.object({
  sheetId: z.string().regex(/^[\w.-]{1,200}$/),
  finishedAt: z.string().refine((v) => !Number.isNaN(Date.parse(v))),
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional()
    .catch(undefined),
  sheet: z.string().min(1).max(4096).optional().catch(undefined),
  connection: z
    .union([
      z.string(),
      z.object({ name: z.string().optional(), id: z.string().optional() }).loose(),
    ])
    .optional(),
});

/** A row number or an order id as the report writes them: digits, no leading zero. */
const WHOLE = /^[1-9][0-9]{0,15}$/;

/** The largest report.csv, status.csv or summary.json read back (many times a 100,000-row sheet's). */
const MAX_REPORT_FILE_BYTES = 256 * 2 ** 20;

/** A file of the folder, opened without following a link, read whole; undefined when absent. */
export async function readInside(dir: string, name: string): Promise<Buffer | undefined> {
  const file = await openInsideIfThere(dir, name).catch((error: unknown) => {
    if (error instanceof AttachmentRefused) return undefined;
    throw error;
  });
  if (file === undefined) return undefined;
  try {
    // Read whole, as text: a file past this would cost gigabytes, or more than a string holds.
    if (file.size > MAX_REPORT_FILE_BYTES)
      throw new UserError(
        'report-folder.unusable',
        `${join(dir, name)} is ${Math.ceil(file.size / 2 ** 20)} MiB, more than the ${MAX_REPORT_FILE_BYTES / 2 ** 20} MiB a report's file is read up to: not read.`,
        {
          variant: 'too-big',
          values: {
            file: join(dir, name),
            mib: Math.ceil(file.size / 2 ** 20),
            limit: MAX_REPORT_FILE_BYTES / 2 ** 20,
          },
        },
      );
    return await file.bytes();
  } finally {
    await file.close();
  }
}

/** The folder's summary; undefined when it is no report folder (no summary.json, no report.csv). */
export async function readReportedSheet(dir: string): Promise<ReportedSheet | undefined> {
  const text = await readInside(dir, 'summary.json');
  if (text === undefined || (await lstatIfThere(join(dir, 'report.csv')))?.isFile() !== true)
    return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text.toString('utf8'));
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    throw new UserError(
      'report-folder.unusable',
      `${dir}: its summary.json is not JSON (${error.message}).`,
      { variant: 'summary-json', values: { dir, reason: error.message } },
    );
  }
  const parsed = summarySchema.safeParse(json);
  if (!parsed.success)
    throw new UserError(
      'report-folder.unusable',
      `${dir}: its summary.json is not one the importer wrote.`,
      { variant: 'summary-foreign', values: { dir } },
    );
  const { sheetId, finishedAt, connection, sha256, sheet } = parsed.data;
  const named = typeof connection === 'string' ? { name: connection } : connection;
  return {
    dir,
    sheetId,
    finishedAt,
    ...(named?.id !== undefined && { connectionId: named.id }),
    ...(named?.name !== undefined && { connectionName: named.name }),
    ...(sha256 !== undefined && { sha256 }),
    ...(sheet !== undefined && { sheet }),
  };
}

/** The delimiter of a CSV the importer wrote: the one after its first column's name. */
export function delimiterOf(text: string, firstColumn: string): string {
  const head = text.replace(/^\uFEFF/, '');
  return new RegExp(`^${firstColumn}([,;\\t])`).exec(head)?.[1] ?? ',';
}

/** A CSV the importer wrote, as records by column name, each cell as it was before neutralising. */
export function readCsvRecords(
  text: string,
  delimiter: string,
  what: string,
): Array<Record<string, string>> {
  let records: string[][];
  try {
    const parsed: string[][] = parse(text, {
      delimiter,
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
    });
    records = parsed;
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    throw new UserError('report-folder.unusable', `${what} cannot be read (${error.message}).`, {
      cause: error,
      variant: 'csv',
      values: { file: what, reason: error.message },
    });
  }
  const [header = [], ...rows] = records;
  const names = header.map(restoreCell);
  return rows.map((cells) =>
    Object.fromEntries(names.map((name, i) => [name, restoreCell(cells[i] ?? '')])),
  );
}

/**
 * The orders report.csv names: its `created` rows, and its `failed` rows that carry an order id
 * (an order made whose files did not all go). A `duplicate` row's order is another sheet's.
 */
export async function readReportedOrders(
  dir: string,
): Promise<{ delimiter: string; orders: ReportedOrder[] }> {
  const bytes = await readInside(dir, 'report.csv');
  if (bytes === undefined)
    throw new UserError('report-folder.unusable', `${dir} has no report.csv.`, {
      variant: 'no-report',
      values: { dir },
    });
  const text = bytes.toString('utf8');
  const delimiter = delimiterOf(text, 'row');
  const orders: ReportedOrder[] = [];
  // An order is read once, for the first row naming it (a report edited by hand may repeat it).
  const seen = new Set<number>();
  for (const record of readCsvRecords(text, delimiter, `${dir}/report.csv`)) {
    const made = record.status === 'created' || record.status === 'failed';
    // Digits only: Number() would also read `1e1`, `0x1E` or ` 1 ` as some other order.
    if (!made || !WHOLE.test(record.row ?? '') || !WHOLE.test(record.order_id ?? '')) continue;
    const row = Number(record.row);
    const orderId = Number(record.order_id);
    if (!Number.isSafeInteger(row) || !Number.isSafeInteger(orderId) || seen.has(orderId)) continue;
    seen.add(orderId);
    orders.push({
      row,
      reference: record.reference ?? '',
      orderId,
      line: record.line ?? '',
      address: record.address ?? '',
      contactName: record.contact_name ?? '',
    });
  }
  return { delimiter, orders };
}

/** Every report folder under `reportsDir` whose sheet was reported within `days` of `now`. */
export async function recentReports(
  reportsDir: string,
  days: number,
  now: number,
  onProblem: (error: KnownError) => void,
): Promise<ReportedSheet[]> {
  const since = now - days * 24 * 60 * 60 * 1000;
  const found: ReportedSheet[] = [];
  for (const name of await reportFolderNames(reportsDir)) {
    try {
      const sheet = await readReportedSheet(join(reportsDir, name));
      if (sheet !== undefined && Date.parse(sheet.finishedAt) >= since) found.push(sheet);
    } catch (error) {
      if (!isKnown(error, 'report-folder.unusable')) throw error;
      onProblem(error);
    }
  }
  return found.sort((a, b) => a.finishedAt.localeCompare(b.finishedAt));
}

/** The report folder of a sheet: `$REPORTS_DIR/<sheet-name>-<sheetId>`; undefined when none. */
export async function reportOfSheet(
  reportsDir: string,
  sheetId: string,
): Promise<ReportedSheet | undefined> {
  for (const name of await reportFolderNames(reportsDir)) {
    if (!name.endsWith(`-${sheetId}`)) continue;
    const sheet = await readReportedSheet(join(reportsDir, name));
    if (sheet?.sheetId === sheetId) return sheet;
  }
  return undefined;
}

async function reportFolderNames(reportsDir: string): Promise<string[]> {
  try {
    const entries = await readdir(reportsDir, { withFileTypes: true });
    // A report being written is `<folder>.partial`: not a report yet.
    return entries
      .filter((e) => e.isDirectory() && !e.name.endsWith('.partial'))
      .map((e) => e.name)
      .sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
