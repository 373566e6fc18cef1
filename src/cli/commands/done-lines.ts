/**
 * What `watch` tells a person about the sheets it took: their progress while in work, and a plain
 * line when each one is done, with its counts, where its report is and its page on the dashboard
 * (the logs, JSON for machines, have it too).
 */
import type { Logger } from 'pino';

import { type Words, wordsFor } from '../../language/words.js';
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
  /** The words of the person watching. @defaultValue English */
  words?: Words;
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
      this.options.print(
        doneLine(sheet, this.options.show, this.options.page?.(sheetId), this.options.words),
      );
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
  words: Words = wordsFor('en'),
): string {
  const named = { name: terminalText(sheet.name), sheetId: sheet.sheetId };
  const see = page === undefined ? '' : ` ${words.t('cli.done.see', { page })}`;
  if (sheet.error !== undefined)
    return `${words.t('cli.done.unreadable', { ...named, error: terminalText(sheet.error) })}${see}`;
  const counts = ROW_STATUSES.filter((status) => sheet.counts[status] > 0).map((status) =>
    words.t('cli.status.count', { count: sheet.counts[status], status: statusSelector(status) }),
  );
  const what = counts.length > 0 ? counts.join(', ') : words.t('cli.done.no-rows');
  const where =
    sheet.reportDir === undefined
      ? ''
      : ` ${words.t('cli.done.report', { dir: terminalText(show(sheet.reportDir)) })}`;
  return `${words.t('cli.done.counts', { ...named, counts: what })}${where}${see}`;
}

/** A status as the catalogue's selects name it: `needs-review` is `needs_review` there. */
export function statusSelector(status: string): string {
  return status.replace(/-/g, '_');
}
