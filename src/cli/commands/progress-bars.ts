/**
 * How an import shows it is alive: on a terminal, one line per sheet redrawn in place (rows
 * final/total, rate, ETA, failures so far); elsewhere, a plain line per sheet every 10 seconds.
 */
import { type Words, wordsFor } from '../../language/words.js';
import type { SheetProgress } from '../../store/progress.js';
import { terminalText } from '../terminal-text.js';
import { PROGRESS_LINE_MS } from '../../policy.js';

interface Sample {
  at: number;
  final: number;
}

export class ProgressBars {
  readonly #tty: boolean;
  readonly #history = new Map<string, Sample[]>();
  #drawnLines = 0;
  #lastPlain = 0;
  #sheets: readonly SheetProgress[] = [];

  constructor(
    private readonly stream: NodeJS.WritableStream,
    private readonly now: () => number = Date.now,
    private readonly plainEveryMs = PROGRESS_LINE_MS,
    /** The words of the person watching (the process's language). */
    private readonly words: Words = wordsFor('en'),
  ) {
    this.#tty = (stream as { isTTY?: boolean }).isTTY === true;
  }

  update(sheets: readonly SheetProgress[]): void {
    const now = this.now();
    this.#sheets = sheets;
    for (const sheet of sheets) this.#remember(sheet, now);
    if (this.#tty) {
      this.#draw(now);
    } else if (now - this.#lastPlain >= this.plainEveryMs) {
      this.#lastPlain = now;
      for (const sheet of sheets) this.stream.write(`${this.line(sheet, now)}\n`);
    }
  }

  /**
   * A line of its own (an outage, for one): on a terminal it goes above the progress lines, which
   * are drawn again below it rather than over it.
   */
  printAbove(line: string): void {
    if (!this.#tty || this.#drawnLines === 0) {
      this.stream.write(`${line}\n`);
      return;
    }
    this.stream.write(`\u001b[${this.#drawnLines}F\u001b[0J${line}\n`);
    this.#drawnLines = 0;
    this.#draw(this.now());
  }

  #draw(now: number): void {
    const up = this.#drawnLines > 0 ? `\u001b[${this.#drawnLines}F` : '';
    const lines = this.#sheets.map((s) => `\u001b[2K${this.#fitted(this.line(s, now))}\n`).join('');
    // Fewer sheets than drawn (watch: one is done): the lines left below are wiped.
    const below = this.#sheets.length < this.#drawnLines ? '\u001b[0J' : '';
    this.stream.write(`${up}${lines}${below}`);
    this.#drawnLines = this.#sheets.length;
  }

  /**
   * A line cut to the terminal's width: one that wrapped would take two rows where the redraw
   * goes up one, and leave a copy of itself behind at every redraw.
   */
  #fitted(line: string): string {
    const columns = (this.stream as { columns?: unknown }).columns;
    if (typeof columns !== 'number' || columns < 2) return line;
    const chars = Array.from(line);
    return chars.length < columns ? line : `${chars.slice(0, columns - 2).join('')}…`;
  }

  /** One sheet's line: `orders.csv  [#####-----] 1,234/5,000 rows  42 rows/s  ETA 1m30s  failed 3`. */
  line(sheet: SheetProgress, now: number): string {
    const { words } = this;
    const total = sheet.total;
    const final = sheet.final;
    // A file's name is the user's text: it may hold control characters.
    const name = terminalText(sheet.name);
    if (sheet.state === 'done') return `${name}  ${words.t('cli.progress.done', { count: final })}`;
    if (total === undefined)
      return `${name}  ${words.t(sheet.state === 'queued' ? 'cli.progress.queued' : 'cli.progress.reading')}`;
    const width = 20;
    const filled = total === 0 ? width : Math.min(width, Math.floor((final / total) * width));
    const bar = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`;
    const rate = this.#rate(sheet.sheetId, now);
    const tenths = { minimumFractionDigits: 1, maximumFractionDigits: 1 };
    // Under a second seen, no rate yet: a sheet done in a moment is not "0.0 rows/s".
    const speed =
      rate === undefined
        ? ''
        : `  ${words.t('cli.progress.rate', { rate: words.number(rate, tenths) })}`;
    const eta =
      rate !== undefined && rate > 0
        ? ` ${words.t('cli.progress.eta', { duration: duration((total - final) / rate) })}`
        : '';
    const failures = sheet.counts.failed + sheet.counts.invalid + sheet.counts['needs-review'];
    const notCreated =
      failures > 0 ? `  ${words.t('cli.progress.not-created', { count: failures })}` : '';
    const rows = words.t('cli.progress.rows', { final: words.number(final), total });
    return `${name}  ${bar} ${rows}${speed}${eta}${notCreated}`;
  }

  #remember(sheet: SheetProgress, now: number): void {
    const samples = this.#history.get(sheet.sheetId) ?? [];
    samples.push({ at: now, final: sheet.final });
    while (samples.length > 2 && (samples[0]?.at ?? now) < now - 30_000) samples.shift();
    this.#history.set(sheet.sheetId, samples);
  }

  /** Rows per second over the last 30 s; undefined before a second has been seen. */
  #rate(sheetId: string, now: number): number | undefined {
    const samples = this.#history.get(sheetId) ?? [];
    const first = samples[0];
    const last = samples.at(-1);
    if (!first || !last || last.at - first.at < 1000) return undefined;
    return ((last.final - first.final) / (now - first.at)) * 1000;
  }
}

export function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}
