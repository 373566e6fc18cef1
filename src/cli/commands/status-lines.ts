/**
 * What `status` says of each sheet: read with the importer of its own connection (or not at all),
 * then a line for people, a JSON object for scripts, and a progress line on a terminal.
 */
import { type ReportedSheet } from '../../status/report-folder.js';
import { refreshSheetStatus, type SheetStatus } from '../../status/status.js';
import { isKnown, UserError } from '../../errors.js';
import type { Importer } from '../../app/importer.js';
import { shortPath } from '../setup.js';

/** A sheet's line of the run: its status, or why it was not read. */
export type SheetOutcome = { sheet: ReportedSheet } & (
  { status: SheetStatus; error?: undefined } | { error: string; status?: undefined }
);

/** One sheet read with the importer of its own connection; none here: not read at all. */
export async function readSheet(
  sheet: ReportedSheet,
  importers: readonly Importer[],
  skipFinal: boolean,
  stderr: NodeJS.WritableStream,
): Promise<SheetOutcome> {
  const importer = importers.find((i) => i.connection.id === sheet.connectionId);
  if (importer === undefined) {
    const named = sheet.connectionName === undefined ? '' : ` "${sheet.connectionName}"`;
    return {
      sheet,
      error: `imported through connection${named} (${sheet.connectionId ?? 'not named in its summary.json'}), which is not configured here: not read (its orders are read only with that connection's token).`,
    };
  }
  const progress = new StatusProgress(stderr, sheet.sheetId);
  try {
    const status = await refreshSheetStatus(importer.ctx, sheet, {
      skipFinal,
      onProgress: (done, total) => {
        progress.show(done, total);
      },
    });
    return { sheet, status };
  } catch (error) {
    // A refused token is every sheet's of the connection: the run cannot go on.
    if (isKnown(error, 'status.api-unusable'))
      throw new UserError(error.key, error.message, { cause: error });
    if (!isKnown(error, 'report-folder.unusable')) throw error;
    return { sheet, error: error.message };
  } finally {
    progress.end();
  }
}

export function sheetLine(outcome: SheetOutcome, cwd: string): string {
  const where = `${outcome.sheet.sheetId} (${shortPath(outcome.sheet.dir, cwd)})`;
  if (outcome.status === undefined) return `${where}: ${outcome.error}`;
  const { orders, byStatus, changed, unreadable, skipped } = outcome.status;
  const statuses = Object.entries(byStatus)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, n]) => `${n} ${status}`)
    .join(', ');
  if (skipped) return `${where}: ${orders} orders, all final (${statuses}): not read again.`;
  const parts = [
    `${orders} orders`,
    ...(statuses === '' ? [] : [statuses]),
    `${changed} changed`,
    ...(unreadable > 0 ? [`${unreadable} not readable now (their previous lines kept)`] : []),
  ];
  return `${where}: ${parts.join('; ')}.`;
}

/** The orders not read, a few of them by row, each with why. */
export function unreadableLines(outcome: SheetOutcome): string[] {
  const orders = outcome.status?.unreadableOrders ?? [];
  const shown = orders.slice(0, 10).map((o) => `  row ${o.row}, order ${o.order_id}: ${o.reason}`);
  return orders.length > 10 ? [...shown, `  … and ${orders.length - 10} more`] : shown;
}

export function jsonOf(outcome: SheetOutcome) {
  const { sheetId } = outcome.sheet;
  if (outcome.status === undefined)
    return { sheetId, orders: 0, byStatus: {}, changed: 0, error: outcome.error };
  const { orders, byStatus, changed } = outcome.status;
  return { sheetId, orders, byStatus, changed };
}

/** On a terminal, one line redrawn in place while a sheet's orders are read; elsewhere nothing. */
class StatusProgress {
  readonly #tty: boolean;
  #shownAt = 0;
  #drawn = false;

  constructor(
    private readonly stream: NodeJS.WritableStream,
    private readonly sheetId: string,
  ) {
    this.#tty = (stream as { isTTY?: boolean }).isTTY === true;
  }

  show(done: number, total: number): void {
    const now = Date.now();
    if (!this.#tty || (now - this.#shownAt < 200 && done < total)) return;
    this.#shownAt = now;
    this.stream.write(`\r\u001b[2K${this.sheetId}: reading orders ${done}/${total}`);
    this.#drawn = true;
  }

  end(): void {
    if (this.#drawn) this.stream.write('\r\u001b[2K');
    this.#drawn = false;
  }
}
