/**
 * The summaries of the sheets' status.csv files, kept while the files stay as they were: the
 * overview asks for every reported sheet's each time it is shown (every two seconds while a
 * browser has it open), and a file is read again only once it changed (another inode, size,
 * modification or change time). What a file could not be read for is kept the same way, so that
 * a broken or huge file is not read again and again either. One cache per dashboard, passed to
 * its pages; it holds at most `size` folders, the least recently asked for dropped first.
 *
 * A big file costs a second or two of CPU to read: at most two are read at once, the others
 * wait their turn, so that many pages opened together leave the overview and /healthz answering.
 */
import { join } from 'node:path';

import { lstatIfThere } from '../intake/files.js';
import {
  nextInspection,
  type OrderLine,
  ordersOfRows,
  type StatusSummary,
  summariseStatus,
  wallClock,
} from './order-status.js';
import { STATUS_FILE, STATUS_LIMITS, type StatusLimits } from './status-csv.js';

/** What the dashboard shows of a sheet's orders: undefined when it has no status.csv. */
export type OrdersSeen = { summary: StatusSummary; next?: string } | Error | undefined;

/** A sheet page's orders: the sheet's, and those of the rows on the page. */
export interface PageOrders {
  seen: OrdersSeen;
  /** The page's rows' orders, by row; an Error when they could not be read. */
  rows?: Map<number, OrderLine> | Error;
}

interface Entry {
  key: string;
  read: Promise<StatusSummary | Error | undefined>;
}

export class StatusCache {
  private readonly entries = new Map<string, Entry>();
  /** Files read since it was made (what the cache saves is what this does not count). */
  reads = 0;
  /** The most files read at the same time since it was made. */
  mostAtOnce = 0;
  private reading = 0;
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly limits: StatusLimits = STATUS_LIMITS,
    // Well over the sheets an overview lists (200 per store), so that one overview never drops
    // what the next needs: each entry is a few kilobytes.
    private readonly size = 2000,
    private readonly atOnce = 2,
  ) {}

  /** A report folder's orders at `now`. */
  async seen(reportDir: string, now: Date): Promise<OrdersSeen> {
    const wall = wallClock(now);
    const summary = await this.summary(reportDir, wall);
    if (summary === undefined || summary instanceof Error) return summary;
    const first = nextInspection(summary, wall);
    if (!first.stale) return { summary, ...(first.next !== undefined && { next: first.next }) };
    // Every date kept has passed: the later ones are in the file only.
    this.entries.delete(reportDir);
    const again = await this.summary(reportDir, wall);
    if (again === undefined || again instanceof Error) return again;
    const { next } = nextInspection(again, wall);
    return { summary: again, ...(next !== undefined && { next }) };
  }

  /** The folder's orders, and those of the rows on a sheet's page. */
  async page(reportDir: string, rows: readonly number[], now: Date): Promise<PageOrders> {
    const seen = await this.seen(reportDir, now);
    if (seen === undefined || seen instanceof Error) return { seen };
    try {
      return {
        seen,
        rows: await this.inTurn(() =>
          ordersOfRows(reportDir, rows, seen.summary.inRowOrder, this.limits),
        ),
      };
    } catch (error) {
      // Changed between the summary and now: said in place of the rows' orders.
      return { seen, rows: error instanceof Error ? error : new Error(String(error)) };
    }
  }

  private async summary(
    reportDir: string,
    now: string,
  ): Promise<StatusSummary | Error | undefined> {
    let key: string | undefined;
    try {
      key = await fileKey(reportDir);
    } catch (error) {
      // The folder cannot be looked into (permissions): said, and looked at again next time.
      return error instanceof Error ? error : new Error(String(error));
    }
    if (key === undefined) {
      this.entries.delete(reportDir);
      return undefined;
    }
    let entry = this.entries.get(reportDir);
    if (entry?.key !== key) {
      entry = { key, read: this.read(reportDir, now) };
    }
    // Asked for last: dropped last.
    this.entries.delete(reportDir);
    this.entries.set(reportDir, entry);
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.size) break;
      this.entries.delete(oldest);
    }
    return entry.read;
  }

  /** `work` once fewer than `atOnce` reads run, in the order asked. */
  private async inTurn<T>(work: () => Promise<T>): Promise<T> {
    if (this.reading >= this.atOnce) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.reading += 1;
    }
    this.running += 1;
    this.mostAtOnce = Math.max(this.mostAtOnce, this.running);
    try {
      return await work();
    } finally {
      this.running -= 1;
      // The turn passes on to the next waiting, or is given back.
      const next = this.waiting.shift();
      if (next === undefined) this.reading -= 1;
      else next();
    }
  }

  private async read(reportDir: string, now: string): Promise<StatusSummary | Error | undefined> {
    this.reads += 1;
    try {
      return await this.inTurn(() => summariseStatus(reportDir, now, this.limits));
    } catch (error) {
      // Kept as the file's answer until the file changes: the page says it.
      return error instanceof Error ? error : new Error(String(error));
    }
  }
}

/**
 * What tells one version of the folder's status.csv from another, without opening it; undefined
 * when the folder has none. A link is keyed too: reading it is refused, and that is kept.
 */
async function fileKey(reportDir: string): Promise<string | undefined> {
  if (!(await lstatIfThere(reportDir))?.isDirectory()) return undefined;
  const stats = await lstatIfThere(join(reportDir, STATUS_FILE));
  if (stats === undefined) return undefined;
  return [stats.dev, stats.ino, stats.mode, stats.size, stats.mtimeMs, stats.ctimeMs].join(':');
}
