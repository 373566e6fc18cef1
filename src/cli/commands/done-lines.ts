/**
 * What `watch` tells a person about the sheets it took: a plain line when each one is done,
 * with its counts and where its report is (the logs, JSON for machines, have it too).
 */
import type { Logger } from 'pino';

import type { SheetProgress } from '../../store/progress.js';
import { ROW_STATUSES } from '../../glossary.js';
import { terminalText } from '../terminal-text.js';

export interface DoneAnnouncerOptions {
  progress(sheetId: string): Promise<SheetProgress | undefined>;
  print(line: string): void;
  /** How a path is shown (relative to where the user is). */
  show: (path: string) => string;
  logger: Logger;
  everyMs?: number;
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
    }, options.everyMs ?? 1000);
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
      if (sheet?.state !== 'done') continue;
      this.#pending.delete(sheetId);
      this.options.print(doneLine(sheet, this.options.show));
    }
  }
}

/** `Done: orders.csv (sheet …): 4 created, 1 invalid. Report: data/reports/orders-…/` */
export function doneLine(sheet: SheetProgress, show: (path: string) => string): string {
  const head = `Done: ${terminalText(sheet.name)} (sheet ${sheet.sheetId})`;
  if (sheet.error !== undefined) return `${head}: it cannot be read: ${terminalText(sheet.error)}`;
  const counts = ROW_STATUSES.filter((status) => sheet.counts[status] > 0).map(
    (status) => `${sheet.counts[status]} ${status}`,
  );
  const what = counts.length > 0 ? counts.join(', ') : 'no rows';
  const where =
    sheet.reportDir === undefined ? '' : ` Report: ${terminalText(show(sheet.reportDir))}/`;
  return `${head}: ${what}.${where}`;
}
