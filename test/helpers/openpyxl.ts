/**
 * Workbooks written by Python's openpyxl (pandas' default engine), an independent producer: inline
 * strings, relationship targets written absolute, the workbook part after the worksheets. Run
 * through Debian's python3 and its python3-openpyxl (.ci/run and scripts/test-needs.ts install it
 * when it is missing): a `python3` on PATH may be another one without openpyxl.
 */
import { spawn } from 'node:child_process';

export const DEBIAN_PYTHON = '/usr/bin/python3';

/** A cell as openpyxl is given it: text, a number, a boolean, empty, a date or a date and time. */
export type PyCell = string | number | boolean | null | { date: string } | { datetime: string };

export interface PySheet {
  name: string;
  /** Rows from row 1; an empty array is a blank row. */
  rows: PyCell[][];
}

const SCRIPT = `
import datetime, json, sys
import openpyxl
from openpyxl.utils.datetime import CALENDAR_MAC_1904
spec = json.load(sys.stdin)
book = openpyxl.Workbook()
book.remove(book.active)
if spec.get("date1904"):
    book.epoch = CALENDAR_MAC_1904
def value(cell):
    if isinstance(cell, dict) and "date" in cell:
        return datetime.date.fromisoformat(cell["date"])
    if isinstance(cell, dict) and "datetime" in cell:
        return datetime.datetime.fromisoformat(cell["datetime"])
    return cell
for sheet in spec["sheets"]:
    ws = book.create_sheet(sheet["name"])
    for i, row in enumerate(sheet["rows"]):
        for j, cell in enumerate(row):
            if cell is not None:
                ws.cell(row=i + 1, column=j + 1, value=value(cell))
book.save(spec["path"])
`;

/** Writes a workbook of these worksheets at `path` with openpyxl. */
export async function writeOpenpyxl(
  path: string,
  sheets: readonly PySheet[],
  options: { date1904?: boolean } = {},
): Promise<string> {
  const child = spawn(DEBIAN_PYTHON, ['-c', SCRIPT], { stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(JSON.stringify({ path, sheets, date1904: options.date1904 === true }));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  if (code !== 0) throw new Error(`openpyxl could not write ${path}: ${stderr}`);
  return path;
}
