/**
 * The doorbell: a process's workers run only while their queues have work, so that its Redis
 * connections do not grow with its offices (docs/design.md "Many offices"). A BullMQ worker
 * holds a blocking connection of its own for as long as it runs; five per office would be 2,500
 * for 500 offices. Each office keeps its own queues (a Redis Cluster puts each office's keys on
 * its own shard), and a look reads, in one script call per office, what each of its queues holds
 * (queue/work.ts): jobs waiting, jobs active (maybe of a process that died: only a running worker
 * looks for stalled jobs), the first delayed job's time. It looks:
 * - at every office at once when this process adds a job (each queue tells it), and when the
 *   prefix's doorbell counter moved (another process added one): read every DOORBELL_EVERY_MS;
 * - at the offices with a worker running, waiting for one, or a delayed job due, every
 *   DOORBELL_EVERY_MS;
 * - at every office every DOORBELL_SWEEP_MS, for what no counter tells: the jobs of a process
 *   that died, those queued by a version before the doorbell.
 * A queue with work gets its worker within the process's slots (worker-slots.ts); a worker whose
 * queue held nothing for WORKER_IDLE_MS is closed. It serves only the offices this process holds
 * a token for (their contexts): another office's queues are never looked at, its jobs left to a
 * process that holds its token. And it runs the reconciler over those offices every
 * RECONCILE_EVERY_MS (rows/reconcile.ts), in one pass.
 */
import type { Logger } from 'pino';

import { type Context, redisTrouble } from '../context.js';
import { type QueueWork, queueWorkKeys, readQueueWork } from '../queue/work.js';
import { isRedisUnreachable, type RedisTarget } from '../redis/connect.js';
import { reconcileOffices } from '../rows/reconcile.js';
import {
  DOORBELL_EVERY_MS,
  DOORBELL_SWEEP_MS,
  MAX_RUNNING_WORKERS,
  MAX_RUNNING_WORKERS_CLUSTER,
  MAX_SHEET_WORKERS,
  MAX_SHEET_WORKERS_CLUSTER,
  RECONCILE_EVERY_MS,
  WORKER_IDLE_MS,
  WORKER_TURN_MS,
} from '../policy.js';
import { type Line, type OnDemand, WorkerSlots } from './worker-slots.js';

export type { OnDemand } from './worker-slots.js';

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
  sweepMs?: number;
  idleMs?: number;
  turnMs?: number;
  maxWorkers?: number;
  maxSheetWorkers?: number;
}

/**
 * How many workers a process runs at once on this Redis: fewer on a Cluster, whose workers each
 * hold more connections (policy.ts).
 */
export function workerCaps(
  redis: Pick<RedisTarget, 'kind'>,
): Required<Pick<DoorbellOptions, 'maxWorkers' | 'maxSheetWorkers'>> {
  return redis.kind === 'cluster'
    ? { maxWorkers: MAX_RUNNING_WORKERS_CLUSTER, maxSheetWorkers: MAX_SHEET_WORKERS_CLUSTER }
    : { maxWorkers: MAX_RUNNING_WORKERS, maxSheetWorkers: MAX_SHEET_WORKERS };
}

interface Office {
  ctx: Context;
  /** Its stop began: its lines are left alone (read once, not its signal at every look). */
  stopping: boolean;
  lines: Line[];
  /**
   * Looked at every round: a worker of it ran or was wanted at its last look, or rung since
   * (cleared by a look that finds it quiet).
   */
  watched: boolean;
  /** When the first delayed job of a queue of it without a worker is due, as last seen. */
  nextDue: number | undefined;
  /** The keys its look reads, its lines' in their order (made when its lines change). */
  keys: string[];
  reconcile: boolean;
}

type Options = Required<Omit<DoorbellOptions, 'logger'>>;

export class Doorbell {
  readonly #options: Options;
  readonly #offices = new Map<Context, Office>();
  readonly #slots: WorkerSlots;
  /** The doorbell counters of the offices' prefixes, as last read. */
  readonly #pulses = new Map<string, string | null>();
  #rounds: NodeJS.Timeout[] = [];
  #lastSweep = 0;
  #looking: Promise<void> | undefined;
  #lookAgain: 'all' | 'busy' | undefined;
  #rounding = false;
  #reconciling = false;
  #closed = false;

  constructor(options: DoorbellOptions) {
    const { logger: _logger, ...rest } = options;
    this.#options = {
      now: Date.now,
      ownedByItsOffices: false,
      everyMs: DOORBELL_EVERY_MS,
      sweepMs: DOORBELL_SWEEP_MS,
      idleMs: WORKER_IDLE_MS,
      turnMs: WORKER_TURN_MS,
      maxWorkers: MAX_RUNNING_WORKERS,
      maxSheetWorkers: MAX_SHEET_WORKERS,
      ...rest,
    };
    this.#slots = new WorkerSlots(this.#options, () => {
      this.#allocate();
    });
  }

  /** Workers running now, over every office. */
  get running(): number {
    return [...this.#lines()].filter((line) => line.worker !== undefined).length;
  }

  /**
   * Serves these workers of `ctx`'s office from now until its stop begins (and, with
   * `reconcile`, reconciles it). Returns what stops serving them and closes those running.
   */
  add(ctx: Context, workers: readonly OnDemand[], reconcile = false): () => Promise<void> {
    if (this.#closed || ctx.stop.stopping.signal.aborted) return () => Promise.resolve();
    const office = this.#officeOf(ctx);
    office.reconcile ||= reconcile;
    const now = this.#options.now();
    const lines = workers.map((w): Line => ({ ...w, ctx, startedAt: now }));
    office.lines.push(...lines);
    office.keys = queueWorkKeys(office.lines.map((line) => line.queue));
    const heard = lines.map((line) =>
      line.queue.whenAdded(() => {
        this.#ring(line);
      }),
    );
    this.#startRounds();
    this.lookSoon('all');
    return async () => {
      for (const stop of heard) stop();
      office.lines = office.lines.filter((line) => !lines.includes(line));
      office.keys = queueWorkKeys(office.lines.map((line) => line.queue));
      await Promise.all(lines.map((line) => this.#slots.close(line)));
    };
  }

  /** A look soon (several asks, one look): at every office, or at the busy ones. */
  lookSoon(which: 'all' | 'busy'): void {
    if (this.#looking !== undefined) {
      if (this.#lookAgain !== 'all') this.#lookAgain = which;
      return;
    }
    this.#looking = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.#look(which))
      .finally(() => {
        this.#looking = undefined;
        const again = this.#lookAgain;
        this.#lookAgain = undefined;
        if (again !== undefined && !this.#closed) this.lookSoon(again);
      });
  }

  /** Stops its rounds (the workers are closed with their contexts, workers/stop.ts). */
  close(): void {
    this.#closed = true;
    for (const timer of this.#rounds) clearInterval(timer);
    this.#rounds = [];
  }

  #officeOf(ctx: Context): Office {
    const known = this.#offices.get(ctx);
    if (known !== undefined) return known;
    const office: Office = {
      ctx,
      stopping: false,
      lines: [],
      watched: false,
      nextDue: undefined,
      keys: [],
      reconcile: false,
    };
    this.#offices.set(ctx, office);
    const leave = () => {
      office.stopping = true;
      this.#offices.delete(ctx);
      if (this.#options.ownedByItsOffices && this.#offices.size === 0) this.close();
    };
    ctx.stop.stopping.signal.addEventListener('abort', leave, { once: true });
    return office;
  }

  /** The lines of the offices not stopping. */
  *#lines(): Iterable<Line> {
    for (const office of this.#offices.values()) if (!office.stopping) yield* office.lines;
  }

  #allocate(): void {
    if (!this.#closed) this.#slots.allocate(this.#lines());
  }

  #startRounds(): void {
    if (this.#rounds.length > 0) return;
    const look = setInterval(() => {
      void this.#round();
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

  /** One round: every office when it is time to sweep or a counter moved, else the busy ones. */
  async #round(): Promise<void> {
    // A round still under way (Redis away: its read waits) is not doubled.
    if (this.#looking !== undefined || this.#rounding) return;
    this.#rounding = true;
    const now = this.#options.now();
    let which: 'all' | 'busy' = now - this.#lastSweep >= this.#options.sweepMs ? 'all' : 'busy';
    try {
      if (which === 'busy' && (await this.#pulseMoved())) which = 'all';
      this.lookSoon(which);
    } catch (error) {
      this.#trouble([...this.#offices.keys()][0], error);
    } finally {
      this.#rounding = false;
    }
  }

  /** Whether a doorbell counter of the offices' prefixes moved since it was last read. */
  async #pulseMoved(): Promise<boolean> {
    const byKey = new Map<string, Context>();
    for (const office of this.#offices.values())
      byKey.set(office.ctx.queues.rows.doorbell, office.ctx);
    let moved = false;
    for (const [key, ctx] of byKey) {
      const pulse = await ctx.redis.get(key);
      if (this.#pulses.get(key) !== pulse) moved = true;
      this.#pulses.set(key, pulse);
    }
    return moved;
  }

  /** This process added a job to the line's queue: its worker starts now, not at the next look. */
  #ring(line: Line): void {
    if (line.worker !== undefined && line.closing === undefined) return;
    line.wantsSince ??= this.#options.now();
    const office = this.#offices.get(line.ctx);
    if (office !== undefined) office.watched = true;
    this.#allocate();
  }

  /** Whether an office has a worker running or wanted, or a delayed job due (no scan: 500 a second). */
  #busy(office: Office, now: number): boolean {
    return office.watched || (office.nextDue !== undefined && office.nextDue <= now);
  }

  async #look(which: 'all' | 'busy'): Promise<void> {
    const now = this.#options.now();
    if (which === 'all') this.#lastSweep = now;
    const offices = [...this.#offices.values()].filter(
      (office) =>
        !office.stopping && office.lines.length > 0 && (which === 'all' || this.#busy(office, now)),
    );
    // Offices of one process share its client; contexts a test opened side by side do not.
    const byClient = new Map<Context['redis'], Office[]>();
    for (const office of offices) {
      const group = byClient.get(office.ctx.redis);
      if (group === undefined) byClient.set(office.ctx.redis, [office]);
      else group.push(office);
    }
    let wanted = false;
    for (const [redis, group] of byClient) {
      try {
        const work = await readQueueWork(
          redis,
          group.map((office) => office.keys),
        );
        for (const [i, office] of group.entries()) if (this.#heard(office, work[i])) wanted = true;
      } catch (error) {
        this.#trouble(group[0]?.ctx, error);
      }
    }
    if (wanted) this.#allocate();
  }

  /**
   * What an office's queues hold, line by line (none known: nothing changes); whether a line of
   * it waits for a worker.
   */
  #heard(office: Office, work: QueueWork[] | undefined): boolean {
    if (work === undefined) return false;
    const now = this.#options.now();
    office.nextDue = undefined;
    office.watched = false;
    let wanted = false;
    for (const [i, line] of office.lines.entries()) {
      const held = work[i];
      if (held === undefined) continue;
      if (line.worker !== undefined) {
        office.watched = true;
        this.#closeWhenIdle(line, held, now);
        continue;
      }
      const busy = held.ready > 0 || held.active > 0 || (held.dueAt ?? Infinity) <= now;
      line.wantsSince = busy ? (line.wantsSince ?? now) : undefined;
      line.dueAt = held.dueAt;
      if (held.dueAt !== undefined)
        office.nextDue = Math.min(office.nextDue ?? Infinity, held.dueAt);
      if (busy) wanted = office.watched = true;
    }
    return wanted;
  }

  /** A running worker whose queue held nothing for it (nor a job due soon) for idleMs is closed. */
  #closeWhenIdle(line: Line, held: QueueWork, now: number): void {
    const { idleMs } = this.#options;
    const soon = (held.dueAt ?? Infinity) <= now + idleMs;
    if (held.ready > 0 || held.active > 0 || soon) line.idleSince = undefined;
    else line.idleSince ??= now;
    if (line.idleSince !== undefined && now - line.idleSince >= idleMs)
      void this.#slots.close(line);
  }

  /** One reconciler pass over the offices that asked for it (never two at once). */
  async #reconcile(): Promise<void> {
    if (this.#reconciling || this.#closed) return;
    const contexts = [...this.#offices.values()]
      .filter((office) => office.reconcile && !office.stopping)
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
    // A look cut short by a stop (its client closed under it) is no outage.
    if (ctx === undefined || this.#closed || ctx.stop.stopping.signal.aborted) return;
    if (error instanceof Error && isRedisUnreachable(error)) redisTrouble(ctx, error);
    else ctx.logger.warn({ err: error }, 'the doorbell could not look at the queues');
  }
}
