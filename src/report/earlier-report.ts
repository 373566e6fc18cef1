/**
 * What became of each row of an earlier import of the same sheet content, read back from that
 * import's report.csv: its rows' results left Redis when the report was written, and the
 * report is the record the user has too.
 */
import { createReadStream } from 'node:fs';
import { join } from 'node:path';

import { parse } from 'csv-parse';

import type { MessageKey, Words } from '../language/words.js';
import { chain } from '../sheets/decode.js';
import { ROW_STATUSES, type RowOutcome, type RowStatus } from '../glossary.js';
import type { SheetRecord } from '../store/sheet-store.js';

export interface EarlierRow {
  status: RowStatus;
  orderId?: number;
}

/** Row number → its earlier outcome; undefined when the earlier report cannot be read. */
export async function readEarlierReport(
  earlier: Pick<SheetRecord, 'reportDir' | 'delimiter'> | undefined,
): Promise<Map<number, EarlierRow> | undefined> {
  if (earlier?.reportDir === undefined) return undefined;
  const rows = new Map<number, EarlierRow>();
  const parser = chain(
    createReadStream(join(earlier.reportDir, 'report.csv')),
    parse({ delimiter: earlier.delimiter ?? ',', bom: true, columns: true }),
  );
  try {
    for await (const record of parser as AsyncIterable<Record<string, string>>) {
      const row = Number(record.row);
      const status = ROW_STATUSES.find((s) => s === record.status);
      if (!Number.isInteger(row) || status === undefined) continue;
      const orderId = Number(record.order_id);
      rows.set(row, {
        status,
        ...(record.order_id !== '' && Number.isInteger(orderId) && { orderId }),
      });
    }
  } catch (error) {
    // Moved or deleted by the user: the ledger still knows which orders were made.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return rows;
}

/**
 * The `duplicate` outcome of a row whose sheet content was imported before, saying what
 * happened to the row then and what (if anything) is left to do about it.
 */
export function duplicateOutcome(
  words: Words,
  earlierSheet: string,
  row: EarlierRow | undefined,
): RowOutcome {
  const values = { sheetId: earlierSheet, orderId: String(row?.orderId ?? '') };
  return {
    status: 'duplicate',
    attempts: 0,
    ...(row?.orderId !== undefined && { orderId: row.orderId }),
    error: words.t(afterwards(row), values),
  };
}

/** What became of the row then, as its message says it. */
function afterwards(row: EarlierRow | undefined): MessageKey {
  const made = row?.orderId !== undefined;
  switch (row?.status) {
    case 'created':
    case 'duplicate':
      return made ? 'rows.again.made' : 'rows.again.done';
    case 'needs-review':
      return 'rows.again.review';
    case 'failed':
      return made ? 'rows.again.partly' : 'rows.again.failed';
    case 'invalid':
      return 'rows.again.invalid';
    case undefined:
      return 'rows.again.unknown';
  }
}
