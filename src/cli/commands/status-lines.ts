/**
 * What `status` says of each sheet: read with the importer of its own connection (or not at all),
 * then a line for people, a JSON object for scripts, and a progress line on a terminal.
 */
import { type ReportedSheet } from '../../status/report-folder.js';
import { refreshSheetStatus, type SheetStatus } from '../../status/status.js';
import { isKnown, type KnownError, UserError } from '../../errors.js';
import type { Importer } from '../../app/importer.js';
import { type Words, wordsFor } from '../../language/words.js';
import { statusText } from '../../notify/status-words.js';
import { errorMessage } from '../error-line.js';
import { shortPath } from '../setup.js';

/**
 * A sheet's line of the run: its status, or why it was not read (`error` in English, for
 * `--json`; `problem` the error that stopped it, none: its connection is not configured here).
 */
export type SheetOutcome = { sheet: ReportedSheet } & (
  | { status: SheetStatus; error?: undefined; problem?: undefined }
  | { error: string; status?: undefined; problem?: KnownError | undefined }
);

/** One sheet read with the importer of its own connection; none here: not read at all. */
export async function readSheet(
  sheet: ReportedSheet,
  importers: readonly Importer[],
  skipFinal: boolean,
  stderr: NodeJS.WritableStream,
  words: Words,
): Promise<SheetOutcome> {
  const importer = importers.find((i) => i.connection.id === sheet.connectionId);
  if (importer === undefined) return { sheet, error: notConfigured(sheet, wordsFor('en')) };
  const progress = new StatusProgress(stderr, sheet.sheetId, words);
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
      throw new UserError(error.key, error.message, {
        cause: error,
        ...(error.values !== undefined && { values: error.values }),
        ...(error.variant !== undefined && { variant: error.variant }),
      });
    if (!isKnown(error, 'report-folder.unusable')) throw error;
    return { sheet, error: error.message, problem: error };
  } finally {
    progress.end();
  }
}

export function sheetLine(outcome: SheetOutcome, cwd: string, words: Words): string {
  const where = { sheetId: outcome.sheet.sheetId, dir: shortPath(outcome.sheet.dir, cwd) };
  if (outcome.status === undefined) {
    const error =
      outcome.problem === undefined
        ? notConfigured(outcome.sheet, words)
        : errorMessage(outcome.problem, words);
    return words.t('cli.status.sheet.error', { ...where, error });
  }
  const { orders, byStatus, changed, unreadable, skipped } = outcome.status;
  const statuses = Object.entries(byStatus)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, count]) =>
      words.t('cli.status.by-status', { count, status: statusText(words, status) }),
    )
    .join(', ');
  if (skipped) return words.t('cli.status.sheet.final', { ...where, orders, statuses });
  const parts = [
    words.t('cli.status.orders', { count: orders }),
    ...(statuses === '' ? [] : [statuses]),
    words.t('cli.status.changed', { count: changed }),
    ...(unreadable > 0 ? [words.t('cli.status.unreadable', { count: unreadable })] : []),
  ];
  return words.t('cli.status.sheet.read', {
    ...where,
    parts: parts.reduce((before, after) => words.t('cli.status.then', { before, after })),
  });
}

function notConfigured(sheet: ReportedSheet, words: Words): string {
  return words.t('cli.status.not-configured', {
    name: sheet.connectionName ?? 'none',
    id: sheet.connectionId ?? 'none',
  });
}

/** The orders not read, a few of them by row, each with why. */
export function unreadableLines(outcome: SheetOutcome, words: Words): string[] {
  const orders = outcome.status?.unreadableOrders ?? [];
  const shown = orders
    .slice(0, 10)
    .map(
      (o) =>
        `  ${words.t('cli.status.unreadable-order', { row: o.row, order: o.order_id, reason: o.reason })}`,
    );
  return orders.length > 10
    ? [...shown, `  ${words.t('cli.status.more', { count: orders.length - 10 })}`]
    : shown;
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
    private readonly words: Words,
  ) {
    this.#tty = (stream as { isTTY?: boolean }).isTTY === true;
  }

  show(done: number, total: number): void {
    const now = Date.now();
    if (!this.#tty || (now - this.#shownAt < 200 && done < total)) return;
    this.#shownAt = now;
    const line = this.words.t('cli.status.reading', { sheetId: this.sheetId, done, total });
    this.stream.write(`\r\u001b[2K${line}`);
    this.#drawn = true;
  }

  end(): void {
    if (this.#drawn) this.stream.write('\r\u001b[2K');
    this.#drawn = false;
  }
}
