/**
 * How fast each running sheet goes, and how long it should still take: from what the dashboard
 * saw of its progress over the last minute (the page asks every two seconds), or, before there is
 * enough of that, from its progress since it was queued. Kept by the dashboard process, a few
 * numbers per sheet: nothing is written anywhere.
 */
import type { SheetProgress } from '../store/progress.js';
import { RATE_SHORTEST_SPAN_MS, RATE_WINDOW_MS } from '../policy.js';

export interface Pace {
  /** Rows made final per second. */
  perSecond: number;
  /** At that pace, until every row is final; unknown while the rows are still being counted. */
  secondsLeft?: number;
}

/** At most this many sheets are followed: the overview shows 200. */
const SHEETS_KEPT = 500;

export class PaceMeter {
  readonly #samples = new Map<string, Array<[at: number, final: number]>>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Notes where the sheets not yet done are now; returns the pace of each that moves. */
  observe(sheets: readonly SheetProgress[]): Map<string, Pace> {
    const at = this.now();
    const paces = new Map<string, Pace>();
    for (const sheet of sheets) {
      if (sheet.state === 'done') {
        this.#samples.delete(sheet.sheetId);
        continue;
      }
      const pace = this.#note(sheet, at);
      if (pace !== undefined) paces.set(sheet.sheetId, pace);
    }
    this.#forgetOld(at);
    return paces;
  }

  #note(sheet: SheetProgress, at: number): Pace | undefined {
    const samples = this.#samples.get(sheet.sheetId) ?? [];
    samples.push([at, sheet.final]);
    while (samples.length > 2 && (samples[0]?.[0] ?? at) < at - RATE_WINDOW_MS) samples.shift();
    this.#samples.set(sheet.sheetId, samples);
    const [firstAt, firstFinal] = samples[0] ?? [at, sheet.final];
    let perSecond: number;
    if (at - firstAt >= RATE_SHORTEST_SPAN_MS) {
      perSecond = ((sheet.final - firstFinal) * 1000) / (at - firstAt);
    } else {
      const since = at - Date.parse(sheet.startedAt);
      perSecond = since > 0 ? (sheet.final * 1000) / since : 0;
    }
    if (!(perSecond > 0)) return undefined;
    const left = sheet.total === undefined ? undefined : Math.max(0, sheet.total - sheet.final);
    return left === undefined ? { perSecond } : { perSecond, secondsLeft: left / perSecond };
  }

  #forgetOld(at: number): void {
    for (const [sheetId, samples] of this.#samples) {
      const last = samples.at(-1)?.[0] ?? 0;
      if (last < at - RATE_WINDOW_MS || this.#samples.size > SHEETS_KEPT)
        this.#samples.delete(sheetId);
    }
  }
}
