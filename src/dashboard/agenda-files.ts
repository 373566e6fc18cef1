/**
 * The agenda to download: `/agenda.csv` by the report's rules (UTF-8 BOM, `;`, every cell that a
 * spreadsheet would run guarded by a leading `'`) and `/agenda.xlsx` (exceljs, each value a text
 * or a number, never a formula). The planned inspections first, by date, then those not planned.
 * `/agenda.ics` is ics.ts's calendar. Column names stay English, as the reports' do; the order status is the API's word.
 */
import { stringify } from 'csv-stringify/sync';

import type { Words } from '../language/words.js';
import { neutraliseCell } from '../sheets/excel-text.js';
import type { AgendaEntry } from '../store/agenda.js';
import { calendarText } from './ics.js';

export const AGENDA_COLUMNS = [
  'date',
  'time',
  'office',
  'product_id',
  'product_name',
  'address',
  'contact_name',
  'contact_phone',
  'inspector_name',
  'order_status',
  'reference',
  'order_id',
  'sheet',
  'sheet_id',
  'row',
] as const;

/** An entry's cells, in AGENDA_COLUMNS' order. */
export function agendaCells(e: AgendaEntry): Array<string | number> {
  return [
    e.date.slice(0, 10),
    e.date.slice(11, 16),
    e.office,
    e.productId,
    e.productName,
    e.address,
    e.contact,
    e.phone,
    e.inspector,
    e.status,
    e.reference,
    e.orderId,
    e.sheetName,
    e.sheetId,
    e.row,
  ];
}

export function agendaCsv(entries: readonly AgendaEntry[]): string {
  const lines = entries.map((e) => agendaCells(e).map((cell) => neutraliseCell(String(cell))));
  return stringify([[...AGENDA_COLUMNS], ...lines], {
    delimiter: ';',
    bom: true,
    record_delimiter: 'windows',
    // As report.csv: any line break is quoted, so no reader takes what follows for a cell.
    quoted_match: /[\r\n]/,
  });
}

export async function agendaXlsx(entries: readonly AgendaEntry[]): Promise<Buffer> {
  // Loaded when a workbook is asked for: exceljs is the heaviest module the dashboard has.
  const { default: excel } = await import('exceljs');
  const workbook = new excel.Workbook();
  const sheet = workbook.addWorksheet('Agenda');
  sheet.addRow([...AGENDA_COLUMNS]).font = { bold: true };
  for (const e of entries) sheet.addRow(agendaCells(e));
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** The list as a calendar, its events described in the reader's words. */
export function agendaIcs(
  words: Words,
  list: readonly AgendaEntry[],
  options: { minutes: number; now: Date; name: string },
): string {
  const labels = {
    contact: words.t('dashboard.agenda.ics.contact'),
    phone: words.t('dashboard.agenda.ics.phone'),
    inspector: words.t('dashboard.agenda.ics.inspector'),
    reference: words.t('dashboard.agenda.ics.reference'),
    order: words.t('dashboard.agenda.ics.order'),
  };
  return calendarText(list, { ...options, labels });
}
