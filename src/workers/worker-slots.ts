/**
 * The slots of a process's workers (doorbell.ts): at most MAX_RUNNING_WORKERS at once, each with
 * a blocking connection of its own, so that the process's Redis connections stay under 64. The
 * queues waiting for one get it first come first served; sheet workers take at most
 * MAX_SHEET_WORKERS of them (a sheet job held back by its rows' high water mark keeps its slot
 * until its rows drain, which needs a rows worker); and with every slot taken, a worker that has
 * run WORKER_TURN_MS is closed, its jobs in flight finished first, for one that waits.
 */
import type { Worker } from 'bullmq';

import type { Context } from '../context.js';
import type { OfficeQueue } from '../queue/queues.js';
import { closeWorker } from './stop.js';

/** A worker the doorbell starts for an office while its queue has work. */
export interface OnDemand {
  /** Its queue's kind (`rows`, `sheets`, …): sheet workers have a cap of their own. */
  kind: string;
  queue: OfficeQueue;
  /** A new worker of the queue, running, its listeners attached. */
  make(): Worker;
}

/** One queue of an office and its worker, when one runs. */
export interface Line extends OnDemand {
  ctx: Context;
  worker?: Worker;
  closing?: Promise<void>;
  startedAt: number;
  /** Running: since when its queue was seen with nothing for it. */
  idleSince?: number;
  /** Not running: since when its queue has work for a worker, waiting for a slot. */
  wantsSince?: number;
  /** Not running: when its queue's first delayed job is due, as last seen. */
  dueAt?: number;
}

export interface SlotOptions {
  maxWorkers: number;
  maxSheetWorkers: number;
  turnMs: number;
  now: () => number;
}

export class WorkerSlots {
  readonly #options: SlotOptions;
  /** Called once a worker has closed: its slot may go to a line that waits. */
  readonly #freed: () => void;

  constructor(options: SlotOptions, freed: () => void) {
    this.#options = options;
    this.#freed = freed;
  }

  /** Starts the lines waiting, first come first served, within the caps; turns when full. */
  allocate(lines: Iterable<Line>): void {
    const running: Line[] = [];
    const waiting: Line[] = [];
    for (const line of lines) {
      if (line.worker !== undefined) running.push(line);
      else if (line.wantsSince !== undefined) waiting.push(line);
    }
    if (waiting.length === 0) return;
    waiting.sort((a, b) => (a.wantsSince ?? 0) - (b.wantsSince ?? 0));
    let free = this.#options.maxWorkers - running.length;
    let sheets = running.filter((line) => line.kind === 'sheets').length;
    let left = 0;
    for (const line of waiting) {
      const sheet = line.kind === 'sheets';
      if (sheet && sheets >= this.#options.maxSheetWorkers) continue;
      if (free <= 0) {
        left += 1;
        continue;
      }
      this.#start(line);
      free -= 1;
      if (sheet) sheets += 1;
    }
    if (left > 0) this.#turnOver(running, left);
  }

  /** Closes the line's worker (its jobs in flight finish first); its slot is free once closed. */
  close(line: Line): Promise<void> {
    const { worker } = line;
    if (worker === undefined) return Promise.resolve();
    line.closing ??= closeWorker(worker, line.ctx.logger)
      .catch((error: unknown) => {
        line.ctx.logger.debug({ err: error, queue: line.queue.name }, 'a worker closed badly');
      })
      .finally(() => {
        const at = line.ctx.workers.indexOf(worker);
        if (at >= 0) line.ctx.workers.splice(at, 1);
        line.worker = undefined;
        line.closing = undefined;
        line.idleSince = undefined;
        line.ctx.logger.debug({ queue: line.queue.name }, 'worker closed');
        this.#freed();
      });
    return line.closing;
  }

  /** Closes up to `count` workers that have run longest, past their turn, for those waiting. */
  #turnOver(running: readonly Line[], count: number): void {
    const now = this.#options.now();
    running
      .filter((line) => line.closing === undefined && now - line.startedAt >= this.#options.turnMs)
      .sort((a, b) => a.startedAt - b.startedAt)
      .slice(0, count)
      .forEach((line) => void this.close(line));
  }

  #start(line: Line): void {
    const worker = line.make();
    line.worker = worker;
    line.startedAt = this.#options.now();
    line.idleSince = undefined;
    line.wantsSince = undefined;
    line.dueAt = undefined;
    // The context's stop closes it (workers/stop.ts) if it still runs then.
    line.ctx.workers.push(worker);
    line.ctx.logger.debug({ queue: line.queue.name }, 'worker started');
  }
}
