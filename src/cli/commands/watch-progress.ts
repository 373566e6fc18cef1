/**
 * What `watch` shows of the sheets in work: on a terminal, one progress line per sheet (rows
 * final/total, rate), rewritten in place a few times a second at most, with the watch's other
 * lines said above them; elsewhere (a log, a pipe), no escape sequence at all: a plain line for a
 * sheet still in work after a minute, and every minute after that.
 */
import { type Words, wordsFor } from '../../language/words.js';
import type { SheetProgress } from '../../store/progress.js';
import type { SheetStore } from '../../store/sheet-store.js';
import { terminalText } from '../terminal-text.js';
import { ProgressBars } from './progress-bars.js';
import { PROGRESS_DRAW_MS, WATCH_PROGRESS_LINE_MS } from '../../policy.js';

export interface WatchProgressOptions {
  now?: () => number;
  /** The least time between two drawings on a terminal. @defaultValue 250 */
  everyMs?: number;
  /** Off a terminal, how long a sheet is in work before its line, and between lines. @defaultValue 60000 */
  plainEveryMs?: number;
  /** The words of the person watching. @defaultValue English */
  words?: Words;
}

/** The progress lines of the sheets in work, keyed by sheet id (whichever connection's). */
export class WatchProgress {
  readonly #bars: ProgressBars;
  readonly #tty: boolean;
  readonly #now: () => number;
  readonly #everyMs: number;
  readonly #plainEveryMs: number;
  readonly #sheets = new Map<string, SheetProgress>();
  /** Off a terminal: when each sheet was last said (or first seen). */
  readonly #said = new Map<string, number>();
  #drawnAt = -Infinity;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(
    private readonly stream: NodeJS.WritableStream,
    options: WatchProgressOptions = {},
  ) {
    this.#now = options.now ?? Date.now;
    this.#everyMs = options.everyMs ?? PROGRESS_DRAW_MS;
    this.#plainEveryMs = options.plainEveryMs ?? WATCH_PROGRESS_LINE_MS;
    this.#tty = (stream as { isTTY?: boolean }).isTTY === true;
    // The bars keep the rates; off a terminal their own plain lines are never due.
    this.#bars = new ProgressBars(stream, this.#now, Infinity, options.words);
  }

  /** The latest of a sheet in work. */
  show(sheet: SheetProgress): void {
    if (this.#closed) return;
    this.#sheets.set(sheet.sheetId, sheet);
    if (this.#tty) {
      this.#soon();
      return;
    }
    const now = this.#now();
    this.#bars.update([sheet]); // its rate, seen now
    const said = this.#said.get(sheet.sheetId);
    if (said === undefined) this.#said.set(sheet.sheetId, now);
    else if (now - said >= this.#plainEveryMs) {
      this.#said.set(sheet.sheetId, now);
      this.stream.write(`${this.#bars.line(sheet, now)}\n`);
    }
  }

  /** A sheet no longer in work (done): its line goes at once. */
  drop(sheetId: string): void {
    this.#said.delete(sheetId);
    if (!this.#sheets.delete(sheetId) || !this.#tty || this.#closed) return;
    this.#draw();
  }

  /**
   * A line of the watch's own: above the progress lines on a terminal, which follow it. Its
   * control characters are shown, not obeyed: lines quote file names and messages that may hold
   * a sheet's.
   */
  say(line: string): void {
    this.#bars.printAbove(terminalText(line));
  }

  /** Wipes the progress lines; what is said after goes on plain lines. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#sheets.clear();
    if (this.#tty) this.#bars.update([]);
  }

  /** Draws now, or once `everyMs` has passed since the last drawing. */
  #soon(): void {
    if (this.#timer !== undefined) return;
    const wait = Math.max(0, this.#drawnAt + this.#everyMs - this.#now());
    if (wait === 0) {
      this.#draw();
      return;
    }
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (!this.#closed) this.#draw();
    }, wait);
    this.#timer.unref();
  }

  #draw(): void {
    this.#drawnAt = this.#now();
    this.#bars.update([...this.#sheets.values()]);
  }
}

/** What a stop leaves for the next start, of one connection's sheets. */
export interface LeftOver {
  /** Rows not final. */
  rows: number;
  /** Sheets holding those rows. */
  sheets: number;
  /** Sheets whose rows are not counted yet (not read far enough). */
  uncounted: number;
  /** Sheets whose rows are all final, their report not written yet. */
  unreported: number;
}

/**
 * The rows not final of the connection's sheets in work, asked of Redis sheet by sheet (a record
 * and a set's size each).
 */
export async function leftOver(store: SheetStore, connectionId: string): Promise<LeftOver> {
  const left: LeftOver = { rows: 0, sheets: 0, uncounted: 0, unreported: 0 };
  for (const sheetId of await store.activeSheets()) {
    const sheet = await store.get(sheetId);
    if (sheet === undefined || sheet.state === 'done' || sheet.connectionId !== connectionId)
      continue;
    const total = sheet.total ?? sheet.expected;
    const rows = total === undefined ? 0 : Math.max(0, total - (await store.finalCount(sheetId)));
    if (total === undefined) left.uncounted += 1;
    else if (rows === 0) left.unreported += 1;
    else {
      left.rows += rows;
      left.sheets += 1;
    }
  }
  return left;
}

/** What several connections leave, together. */
export function sumLeftOver(all: readonly LeftOver[]): LeftOver {
  const sum: LeftOver = { rows: 0, sheets: 0, uncounted: 0, unreported: 0 };
  for (const one of all) {
    sum.rows += one.rows;
    sum.sheets += one.sheets;
    sum.uncounted += one.uncounted;
    sum.unreported += one.unreported;
  }
  return sum;
}

/** `12 rows left for the next start (in 2 sheets).`, or that none are. */
export function leftOverLine(left: LeftOver | undefined, words: Words = wordsFor('en')): string {
  if (left === undefined) return words.t('cli.left.unknown');
  const also = [
    ...(left.uncounted > 0 ? [words.t('cli.left.uncounted', { count: left.uncounted })] : []),
    ...(left.unreported > 0 ? [words.t('cli.left.unreported', { count: left.unreported })] : []),
  ];
  const listed = words.list(also);
  if (left.rows > 0) {
    const counts = { rows: left.rows, sheets: left.sheets };
    return also.length === 0
      ? words.t('cli.left.rows', counts)
      : words.t('cli.left.rows-also', { ...counts, also: listed });
  }
  if (also.length === 0) return words.t('cli.left.none');
  return words.t('cli.left.only', { also: listed });
}
