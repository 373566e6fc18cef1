/**
 * The doorbell: a process's workers run only while their queues have work, so that its Redis
 * connections do not grow with its offices (docs/design.md "Many offices"). A BullMQ worker
 * holds a blocking connection of its own for as long as it runs; five per office would be 2,500
 * for 500 offices. Each office keeps its own queues (a Redis Cluster puts each office's keys on
 * its own shard), and:
 * - every DOORBELL_EVERY_MS, one script call per office reads what each of its idle queues holds
 *   (queue/work.ts): jobs waiting, jobs active (in a process that may have died: only a running
 *   worker looks for stalled jobs), a delayed job due; a job this process adds rings at once;
 * - a queue with work gets its worker, up to MAX_RUNNING_WORKERS at once in the process; offices
 *   waiting for a slot take turns (WORKER_TURN_MS), first come first served;
 * - a worker whose queue held nothing for WORKER_IDLE_MS is closed.
 * It serves only the offices this process holds a token for (their contexts): another office's
 * queue is never looked at, its jobs left to a process that holds its token. And it runs the
 * reconciler over those offices every RECONCILE_EVERY_MS (rows/reconcile.ts), in one pass.
 */
import type { Worker } from 'bullmq';
import type { Logger } from 'pino';

import { type Context, redisTrouble } from '../context.js';
import type { OfficeQueue } from '../queue/queues.js';
import { type QueueWork, readQueueWork } from '../queue/work.js';
import { isRedisUnreachable } from '../redis/connect.js';
import { reconcileOffices } from '../rows/reconcile.js';
import {
  DOORBELL_EVERY_MS,
  MAX_RUNNING_WORKERS,
  MAX_SHEET_WORKERS,
  RECONCILE_EVERY_MS,
  WORKER_IDLE_MS,
  WORKER_TURN_MS,
} from '../policy.js';

/** A worker the doorbell starts for an office while its queue has work. */
export interface OnDemand {
  /** Its queue's kind (`rows`, `sheets`, …): sheet workers have a cap of their own. */
  kind: string;
  queue: OfficeQueue;
  /** A new worker of the queue, running, its listeners attached. */
  make(): Worker;
}

export interface DoorbellOptions {
  logger: Logger;
  now?: () => number;
  /**
   * Stops its rounds once the last of its offices has stopped: a doorbell of one context (a
   * test's, a command's), not the process's.
   */
  ownedByItsOffices?: boolean;
  /** The policy's, unless a test needs others. */
  everyMs?: number;
  idleMs?: number;
  turnMs?: number;
  maxWorkers?: number;
  maxSheetWorkers?: number;
}

interface Line extends OnDemand {
  ctx: Context;
  worker?: Worker;
  closing?: Promise<void>;
  startedAt: number;
  /** When its queue was first seen with nothing for a worker (running), or waiting for one. */
  idleSince?: number;
  wantsSince?: number;
}

interface Office {
  ctx: Context;
  lines: Line[];
  reconcile: boolean;
}

export class Doorbell {
  readonly #options: Required<Omit<DoorbellOptions, 'now'>> & { now: () => number };
  readonly #offices = new Map<Context, Office>();
  #rounds: NodeJS.Timeout[] = [];
  #looking: Promise<void> | undefined;
  #lookAgain = false;
  #reconciling = false;
  #closed = false;

  constructor(options: DoorbellOptions) {
    this.#options = {
      now: Date.now,
      ownedByItsOffices: false,
      everyMs: DOORBELL_EVERY_MS,
      idleMs: WORKER_IDLE_MS,
      turnMs: WORKER_TURN_MS,
      maxWorkers: MAX_RUNNING_WORKERS,
      maxSheetWorkers: MAX_SHEET_WORKERS,
      ...options,
    };
  }

  /** Workers running now, over every office. */
  get running(): number {
    return this.#lines().filter((line) => line.worker !== undefined).length;
  }

  /**
   * Serves these workers of `ctx`'s office from now until its stop begins (and, with
   * `reconcile`, reconciles it). Returns what stops serving them and closes those running.
   */
  add(ctx: Context, workers: readonly OnDemand[], reconcile = false): () => Promise<void> {
    if (this.#closed || ctx.stop.stopping.signal.aborted) return () => Promise.resolve();
    let office = this.#offices.get(ctx);
    if (office === undefined) {
      office = { ctx, lines: [], reconcile: false };
      this.#offices.set(ctx, office);
      ctx.stop.stopping.signal.addEventListener(
        'abort',
        () => {
          this.#leave(ctx);
        },
        { once: true },
      );
    }
    office.reconcile ||= reconcile;
    const now = this.#options.now();
    const lines = workers.map((w): Line => ({ ...w, ctx, startedAt: now }));
    office.lines.push(...lines);
    const heard = lines.map((line) =>
      line.queue.whenAdded(() => {
        this.#ring(line);
      }),
    );
    this.#startRounds();
    this.lookSoon();
    return async () => {
      for (const stop of heard) stop();
      const mine = this.#offices.get(ctx);
      if (mine) mine.lines = mine.lines.filter((line) => !lines.includes(line));
      await Promise.all(lines.map((line) => this.#close(line)));
    };
  }

  /** A look at every office's queues soon (several asks, one look). */
  lookSoon(): void {
    if (this.#looking !== undefined) {
      this.#lookAgain = true;
      return;
    }
    this.#looking = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.#look())
      .finally(() => {
        this.#looking = undefined;
        if (this.#lookAgain && !this.#closed) {
          this.#lookAgain = false;
          this.lookSoon();
        }
      });
  }

  /** Stops its rounds (the workers are closed with their contexts, workers/stop.ts). */
  close(): void {
    this.#closed = true;
    for (const timer of this.#rounds) clearInterval(timer);
    this.#rounds = [];
  }

  #lines(): Line[] {
    return [...this.#offices.values()].flatMap((office) => office.lines);
  }

  #startRounds(): void {
    if (this.#rounds.length > 0) return;
    const look = setInterval(() => {
      this.lookSoon();
    }, this.#options.everyMs);
    const reconcile = setInterval(() => {
      void this.#reconcile();
    }, RECONCILE_EVERY_MS);
    // A process ends when its work does, not when its rounds would.
    look.unref();
    reconcile.unref();
    this.#rounds = [look, reconcile];
    // The first pass at once, as the reconciler's repeating job did: a lost signal of a run
    // that ended is settled at start.
    setImmediate(() => void this.#reconcile());
  }

  /** This process added a job to the line's queue: its worker starts now, not at the next look. */
  #ring(line: Line): void {
    if (line.worker !== undefined && line.closing === undefined) return;
    line.wantsSince ??= this.#options.now();
    this.#allocate();
  }

  #leave(ctx: Context): void {
    this.#offices.delete(ctx);
    if (this.#options.ownedByItsOffices && this.#offices.size === 0) this.close();
  }

  async #look(): Promise<void> {
    const offices = [...this.#offices.values()].filter(
      (office) => !office.ctx.stop.stopping.signal.aborted && office.lines.length > 0,
    );
    // Offices of one process share its client; contexts a test opened side by side do not.
    const byClient = new Map<Context['redis'], Office[]>();
    for (const office of offices)
      byClient.set(office.ctx.redis, [...(byClient.get(office.ctx.redis) ?? []), office]);
    for (const [redis, group] of byClient) {
      try {
        const work = await readQueueWork(
          redis,
          group.map((office) => office.lines.map((line) => line.queue)),
        );
        group.forEach((office, i) => {
          this.#heard(office, work[i]);
        });
      } catch (error) {
        this.#trouble(group[0]?.ctx, error);
      }
    }
    this.#allocate();
  }

  /** What an office's queues hold, line by line (none known: nothing changes). */
  #heard(office: Office, work: QueueWork[] | undefined): void {
    if (work === undefined) return;
    const now = this.#options.now();
    const { idleMs } = this.#options;
    office.lines.forEach((line, i) => {
      const held = work[i];
      if (held === undefined) return;
      const due = held.dueAt !== undefined && held.dueAt <= now;
      const busy = held.ready > 0 || held.active > 0 || due;
      const soon = held.dueAt !== undefined && held.dueAt <= now + idleMs;
      if (line.worker === undefined) {
        line.wantsSince = busy ? (line.wantsSince ?? now) : undefined;
        return;
      }
      if (busy || soon) line.idleSince = undefined;
      else line.idleSince ??= now;
      if (line.idleSince !== undefined && now - line.idleSince >= idleMs) void this.#close(line);
    });
  }

  /** Starts the workers waiting, first come first served, within the caps; turns when full. */
  #allocate(): void {
    if (this.#closed) return;
    const lines = this.#lines().filter((line) => !line.ctx.stop.stopping.signal.aborted);
    const running = lines.filter((line) => line.worker !== undefined);
    let free = this.#options.maxWorkers - running.length;
    let sheets = running.filter((line) => line.kind === 'sheets').length;
    const waiting = lines
      .filter((line) => line.worker === undefined && line.wantsSince !== undefined)
      .sort((a, b) => (a.wantsSince ?? 0) - (b.wantsSince ?? 0));
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

  /** Closes up to `count` workers that have run longest, past their turn, for those waiting. */
  #turnOver(running: readonly Line[], count: number): void {
    const now = this.#options.now();
    running
      .filter((line) => line.closing === undefined && now - line.startedAt >= this.#options.turnMs)
      .sort((a, b) => a.startedAt - b.startedAt)
      .slice(0, count)
      .forEach((line) => void this.#close(line));
  }

  #start(line: Line): void {
    const now = this.#options.now();
    const worker = line.make();
    line.worker = worker;
    line.startedAt = now;
    line.idleSince = undefined;
    line.wantsSince = undefined;
    line.ctx.workers.push(worker);
    line.ctx.logger.debug({ queue: line.queue.name }, 'worker started');
  }

  /** Closes the line's worker (its jobs in flight finish first); its slot is free once closed. */
  #close(line: Line): Promise<void> {
    const { worker } = line;
    if (worker === undefined) return Promise.resolve();
    line.closing ??= worker
      .close()
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
        this.#allocate();
      });
    return line.closing;
  }

  /** One reconciler pass over the offices that asked for it (never two at once). */
  async #reconcile(): Promise<void> {
    if (this.#reconciling || this.#closed) return;
    const contexts = [...this.#offices.values()]
      .filter((office) => office.reconcile && !office.ctx.stop.stopping.signal.aborted)
      .map((office) => office.ctx);
    if (contexts.length === 0) return;
    this.#reconciling = true;
    try {
      await reconcileOffices(contexts);
    } catch (error) {
      this.#trouble(contexts[0], error);
    } finally {
      this.#reconciling = false;
    }
  }

  /** A look that failed: Redis away is said once for the process; anything else is logged. */
  #trouble(ctx: Context | undefined, error: unknown): void {
    if (ctx === undefined) return;
    if (error instanceof Error && isRedisUnreachable(error)) redisTrouble(ctx, error);
    else ctx.logger.warn({ err: error }, 'the doorbell could not look at the queues');
  }
}
