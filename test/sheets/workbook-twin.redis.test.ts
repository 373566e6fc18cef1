import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { parse } from 'csv-parse/sync';
import type ExcelJS from 'exceljs';
import { afterEach, describe, expect, it } from 'vitest';

import type { ValidateSummary } from '../../src/cli/commands/validate.js';
import { readRecords } from '../../src/sheets/records.js';
import { runInProcess } from '../helpers/cli.js';
import { put, tempDir } from '../helpers/files.js';
import { type TestPipeline, testPipeline } from '../helpers/pipeline.js';
import { COLUMNS, sheetRow } from '../helpers/sheets.js';
import { type PyCell, writeOpenpyxl } from '../helpers/openpyxl.js';
import { type Cell, readWorksheet, writeWorkbook } from '../helpers/workbooks.js';

/** The test sheets' columns, with a free-text `remark` before `files`. */
const HEADER = [...COLUMNS.filter((c) => c !== 'files'), 'remark', 'files'];

/** Row n's values apart from a valid row's (sheetRow), as its CSV twin writes them. */
function csvCells(n: number): Record<string, string> {
  return {
    ...sheetRow(n),
    address2: String(10 + n),
    order_products: 'ELEC-1.1',
    breaker_boxes: '2',
    remark: n === 1 ? '2026-12-01' : String(n + 0.25),
    files: n === 1 ? 'docs/plan.pdf' : '',
  };
}

/** Row n as a workbook holds it: numbers, a date, a formula with its saved result. */
function bookRow(n: number, cells: Record<string, Cell> = {}): Cell[] {
  const row: Record<string, Cell> = {
    ...csvCells(n),
    address2: { formula: `10+${n}`, result: 10 + n },
    postal_code: 9000,
    breaker_boxes: 2,
    remark: n === 1 ? new Date(Date.UTC(2026, 11, 1)) : n + 0.25,
    ...cells,
  };
  return HEADER.map((name) => row[name] ?? null);
}

/** The same row as its CSV twin writes it: the text Excel shows. */
function csvRow(n: number, cells: Record<string, string> = {}): string[] {
  const row = { ...csvCells(n), ...cells };
  return HEADER.map((name) => row[name] ?? '');
}

/** A workbook (header on row 2, a blank row in the data, a second worksheet) and its CSV twin. */
async function twins(dir: string) {
  await put(dir, 'docs/plan.pdf', '%PDF-1.4 plan');
  const book = await writeWorkbook(join(dir, 'orders.xlsx'), [
    {
      name: 'Orders',
      rows: [[], HEADER, bookRow(1), bookRow(2), [], bookRow(3, { city: null }), bookRow(4)],
    },
    {
      name: 'Notes',
      rows: [
        ['not', 'orders'],
        ['at', 'all'],
      ],
    },
  ]);
  const lines = [
    '',
    HEADER.join(';'),
    csvRow(1).join(';'),
    csvRow(2).join(';'),
    '',
    csvRow(3, { city: '' }).join(';'),
    csvRow(4).join(';'),
  ];
  const csv = await put(dir, 'orders.csv', `${lines.join('\r\n')}\r\n`);
  return { book, csv };
}

/** The same rows written by openpyxl (no formulas: openpyxl saves no result with them). */
async function openpyxlTwin(dir: string): Promise<string> {
  const row = (n: number, cells: Record<string, PyCell> = {}): PyCell[] => {
    const values: Record<string, PyCell> = {
      ...csvCells(n),
      address2: 10 + n,
      postal_code: 9000,
      breaker_boxes: 2,
      remark: n === 1 ? { date: '2026-12-01' } : n + 0.25,
      ...cells,
    };
    return HEADER.map((name) => values[name] ?? null);
  };
  return writeOpenpyxl(join(dir, 'orders-openpyxl.xlsx'), [
    { name: 'Orders', rows: [[], HEADER, row(1), row(2), [], row(3, { city: null }), row(4)] },
    { name: 'Notes', rows: [['not', 'orders']] },
  ]);
}

function csvRecords(text: string, delimiter: string): string[][] {
  const records: string[][] = parse(text, { bom: true, delimiter });
  return records;
}

/** An order as sent, without what each sandbox numbers or stamps itself. */
function stripIds(order: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(order)) {
    if (/(^|_)(id|at)$|^inspections$/.test(key)) continue;
    kept[key] = value;
  }
  return kept;
}

let open: TestPipeline[] = [];
afterEach(async () => {
  await Promise.all(open.map((t) => t.close()));
  open = [];
});

describe('a workbook and its CSV twin', () => {
  it('validate the same: rows, Excel row numbers as lines, problems', async () => {
    const { book, csv } = await twins(await tempDir('twin-validate-'));
    const finished = await runInProcess(['validate', '--json', book, csv]);
    expect(finished.code).toBe(2);
    const [fromBook, fromCsv] = JSON.parse(finished.stdout) as ValidateSummary[];
    expect(fromBook).toMatchObject({ format: 'xlsx', total: 4, valid: 3, invalid: 1 });
    expect(fromBook?.problems).toEqual(fromCsv?.problems);
    expect(fromBook?.problems).toEqual([
      expect.objectContaining({ row: 3, line: 6, column: 'city' }),
    ]);
  });

  it('validate the same when openpyxl wrote the workbook', async () => {
    const dir = await tempDir('twin-openpyxl-');
    const { csv } = await twins(dir);
    const book = await openpyxlTwin(dir);
    const finished = await runInProcess(['validate', '--json', book, csv]);
    expect(finished.code).toBe(2);
    const [fromBook, fromCsv] = JSON.parse(finished.stdout) as ValidateSummary[];
    expect(fromBook).toMatchObject({ format: 'xlsx', total: 4, valid: 3, invalid: 1 });
    expect(fromBook?.problems).toEqual(fromCsv?.problems);
    // Cell by cell, line by line: the same records.
    const records = async (path: string) => {
      const all: unknown[] = [];
      for await (const batch of (await readRecords(path)).batches)
        all.push(...batch.map((r) => [r.line, r.data]));
      return all;
    };
    expect(await records(book)).toEqual(await records(csv));
  });

  it('import the same: report.csv (but for its delimiter) and the orders sent', async () => {
    const { book, csv } = await twins(await tempDir('twin-import-'));
    const a = await testPipeline();
    const b = await testPipeline();
    open = [a, b];
    const fromBook = await a.importSheet(book);
    const fromCsv = await b.importSheet(csv);
    expect(fromBook.counts).toMatchObject({ created: 3, invalid: 1 });
    expect(fromCsv.counts).toEqual(fromBook.counts);

    const bookReport = await readFile(join(fromBook.reportDir ?? '', 'report.csv'), 'utf8');
    const csvReport = await readFile(join(fromCsv.reportDir ?? '', 'report.csv'), 'utf8');
    expect(bookReport.startsWith('\ufeffrow;line;')).toBe(true);
    // Ids are each sandbox's own, given in the order rows arrive: the rest must be the same.
    const withoutIds = (text: string) =>
      csvRecords(text, ';').map((r) => [...r.slice(0, 4), ...r.slice(7)]);
    expect(withoutIds(bookReport)).toEqual(withoutIds(csvReport));
    expect(csvRecords(bookReport, ';').map((r) => r.slice(0, 4))).toEqual([
      ['row', 'line', 'reference', 'status'],
      ['1', '3', 'R-1', 'created'],
      ['2', '4', 'R-2', 'created'],
      ['3', '6', 'R-3', 'invalid'],
      ['4', '7', 'R-4', 'created'],
    ]);

    const sent = async (t: TestPipeline) =>
      (await t.sandbox.api.listOrders())
        .map(({ id: _id, files, ...order }) => ({
          ...stripIds(order),
          files: files.map((f) => [f.file_name, f.sha256]),
        }))
        .sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
    const orders = await sent(a);
    expect(orders).toHaveLength(3);
    expect(orders).toEqual(await sent(b));
    expect(orders[0]).toMatchObject({ address2: '11', remark: '2026-12-01', breaker_boxes: 2 });
    expect(orders[1]).toMatchObject({ remark: '2.25' });

    // failed/ of the workbook is a workbook: header, order_id, source_row, error, source_sheet; the
    // row as read, and the sheet's id as text (Excel keeps it as written).
    const failed = await readWorksheet(join(fromBook.reportDir ?? '', 'failed', 'orders.xlsx'));
    expect(failed.name).toBe('Orders');
    const header = failed.getRow(1).values as ExcelJS.CellValue[];
    expect(header.slice(1)).toEqual([...HEADER, 'order_id', 'source_row', 'error', 'source_sheet']);
    const row = failed.getRow(2).values as ExcelJS.CellValue[];
    expect(row.slice(1, HEADER.length + 1)).toEqual(csvRow(3, { city: '' }));
    expect(row[HEADER.length + 2]).toBe('3');
    expect(row[HEADER.length + 3]).toMatch(/city is required/);
    expect(row[HEADER.length + 4]).toBe(fromBook.sheetId);
  });
});
