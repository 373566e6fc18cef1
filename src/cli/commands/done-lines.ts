/**
 * What `watch` tells a person about the sheets it took: their progress while in work, and a plain
 * line when each one is done, with its counts, where its report is and its page on the dashboard
 * (the logs, JSON for machines, have it too).
 */
import type { Logger } from 'pino';

import type { SheetProgress } from '../../store/progress.js';
import { ROW_STATUSES } from '../../glossary.js';
import { terminalText } from '../terminal-text.js';
import { DONE_LOOK_MS } from '../../policy.js';

export interface DoneAnnouncerOptions {
  progress(sheetId: string): Promise<SheetProgress | undefined>;
  print(line: string): void;
  /** How a path is shown (relative to where the user is). */
  show: (path: string) => string;
  logger: Logger;
  everyMs?: number;
  /** Where the progress of a sheet still in work goes, and which is in work no more. */
  lines?: { show(sheet: SheetProgress): void; drop(sheetId: string): void };
  /** The sheet's page on the dashboard this process serves, if it serves one. */
  page?: (sheetId: string) => string | undefined;
}

/** Follows sheets taken and prints a line for each once it is done. */
export class DoneAnnouncer {
  readonly #pending = new Set<string>();
  readonly #timer: NodeJS.Timeout;
  #checking: Promise<void> | undefined;

  constructor(private readonly options: DoneAnnouncerOptions) {
    this.#timer = setInterval(() => {
      // One look at a time, so that no sheet is announced twice.
      this.#checking ??= this.#check()
        .catch((error: unknown) => {
          options.logger.warn({ err: error }, 'could not look at the sheets taken; will try again');
        })
        .finally(() => {
          this.#checking = undefined;
        });
    }, options.everyMs ?? DONE_LOOK_MS);
    this.#timer.unref();
  }

  /** Say when this sheet is done. */
  follow(sheetId: string): void {
    this.#pending.add(sheetId);
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.#checking;
  }

  async #check(): Promise<void> {
    for (const sheetId of [...this.#pending]) {
      const sheet = await this.options.progress(sheetId);
      if (sheet === undefined) continue;
      if (sheet.state !== 'done') {
        this.options.lines?.show(sheet);
        continue;
      }
      this.#pending.delete(sheetId);
      this.options.lines?.drop(sheetId);
      this.options.print(doneLine(sheet, this.options.show, this.options.page?.(sheetId)));
    }
  }
}

/**
 * `Done: orders.csv (sheet …): 4 created, 1 invalid. Report: data/reports/orders-…/ — see
 * http://127.0.0.1:3000/sheets/…` (the page last: nothing after a link for a terminal to take in).
 */
export function doneLine(
  sheet: SheetProgress,
  show: (path: string) => string,
  page?: string,
): string {
  const head = `Done: ${terminalText(sheet.name)} (sheet ${sheet.sheetId})`;
  const see = page === undefined ? '' : ` — see ${page}`;
  if (sheet.error !== undefined)
    return `${head}: it cannot be read: ${terminalText(sheet.error)}${see}`;
  const counts = ROW_STATUSES.filter((status) => sheet.counts[status] > 0).map(
    (status) => `${sheet.counts[status]} ${status}`,
  );
  const what = counts.length > 0 ? counts.join(', ') : 'no rows';
  const where =
    sheet.reportDir === undefined ? '' : ` Report: ${terminalText(show(sheet.reportDir))}/`;
  return `${head}: ${what}.${where}${see}`;
}
