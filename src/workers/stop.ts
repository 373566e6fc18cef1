/**
 * Stopping a process: its workers finish the jobs in flight (bounded by a grace period), then its
 * queues close, and its Redis clients when they are its own. Nothing here waits on a Redis that is away: without it no row in
 * flight could finish, and a queue's QUIT would hang the stop.
 */
import type { Worker } from 'bullmq';
import type { Logger } from 'pino';

import type { Context } from '../context.js';
import {
  CLOSE_GRACE_MS,
  CUT_OFF_MS,
  REDIS_ANSWER_MS,
  SERVICE_GRACE_MS,
  STOP_GRACE_MS,
} from '../policy.js';

/** A worker's connection to Redis, as BullMQ gives it. */
type Connection = Awaited<Worker['backend']['client']>;
/** ioredis's states of a connection lost and not back yet. */
const RECONNECTING = new Set(['close', 'reconnecting', 'connecting', 'connect']);

export interface CloseOptions {
  /** How long jobs in flight may take to finish; by default as `grace` says. */
  graceMs?: number;
  /**
   * The grace period by what closes: `service` (`watch`, `worker` told to stop), `brief` (a
   * command whose work is over, or that failed to start); none: STOP_GRACE_MS.
   */
  grace?: 'service' | 'brief';
  /** Abort requests in flight at once; their rows resume from their recorded step. */
  force?: boolean;
  /**
   * Called once the workers have stopped, while Redis is still connected (and answering): what
   * is left then is what the next start has to do.
   */
  afterWorkers?: () => Promise<void>;
}

/** Stops at once: requests in flight are aborted, their rows resume from their recorded step. */
export async function forceStop(ctx: Context): Promise<void> {
  ctx.stop.now.abort(new Error('stopping now'));
  await Promise.all(ctx.workers.map((w) => w.close(true)));
}

/**
 * Stops the context's workers and closes its queues and Redis client; asked again, it is the same
 * stop (with `force`, made forceful).
 */
export async function closeContext(ctx: Context, options: CloseOptions = {}): Promise<void> {
  const under = (ctx.stop.closing ??= close(ctx, options));
  if (options.force) await forceStop(ctx);
  await under;
}

function graceOf({ graceMs, grace }: CloseOptions): number {
  if (graceMs !== undefined) return graceMs;
  if (grace === 'service') return SERVICE_GRACE_MS;
  return grace === 'brief' ? CLOSE_GRACE_MS : STOP_GRACE_MS;
}

async function close(ctx: Context, options: CloseOptions): Promise<void> {
  // Those running now: the doorbell starts none for a context that is stopping.
  const workers = [...ctx.workers];
  ctx.stop.stopping.abort(new Error('stopping'));
  // Redis back but a worker's connection not yet: closing it gracefully would never end.
  const away =
    ctx.outages.redis.since !== undefined ||
    (options.force !== true && !(await connected(ctx, REDIS_ANSWER_MS)));
  if (options.force || away) ctx.stop.now.abort(new Error('stopping now'));
  const closing = Promise.all(workers.map((w) => w.close(options.force || away)));
  if ((await within(closing, away ? 0 : graceOf(options))) === 'late') {
    ctx.stop.now.abort(new Error('grace period over'));
    // Asking a close under way again does not make it forceful: what it waits for is cut off.
    const forced = Promise.all(workers.map((w) => w.close(true)));
    if ((await within(forced, CUT_OFF_MS)) === 'late') await cutOff(workers);
  }
  if (options.afterWorkers && ctx.outages.redis.since === undefined)
    await within(lastLook(ctx, options.afterWorkers), CUT_OFF_MS);
  const queues = Promise.all(Object.values(ctx.queues).map((q) => q.close()));
  queues.catch((error: unknown) => {
    ctx.logger.debug({ err: error }, 'a queue did not close cleanly');
  });
  if ((await within(queues, ctx.outages.redis.since === undefined ? CUT_OFF_MS : 0)) === 'late')
    await cutOff(workers);
  // The workers are done: no line comes any more, what is queued is written before the end.
  await ctx.createsLog.close();
  // Its own clients closed with it; the process's are closed by the process, once.
  ctx.stop.detach();
}

/**
 * Whether every worker's connections (its own and its blocking one) that were lost are back
 * within `ms`. A worker closed gracefully disconnects its blocking connection and waits for its
 * end; a connection waiting for its next try to reconnect (just after Redis came back) never ends
 * when told to (ioredis drops the try, and no 'end' comes), and the worker's close never would.
 */
async function connected(ctx: Context, ms: number): Promise<boolean> {
  return workersConnected(ctx.workers, ctx.logger, ms);
}

/** Whether the workers' connections on their way back are ready within `ms` (connected above). */
async function workersConnected(
  workers: readonly Worker[],
  logger: Logger,
  ms: number,
): Promise<boolean> {
  const stop = new AbortController();
  const clientsOf = async (worker: Worker): Promise<Connection[]> => {
    const { client, blockingClient } = worker.backend;
    return [await client, ...(blockingClient === undefined ? [] : [await blockingClient])];
  };
  const ready = (async () => {
    // Only those on their way back: one never connected (lazily) or ended is no worry.
    const coming = (await Promise.all(workers.map(clientsOf)))
      .flat()
      .filter((client) => RECONNECTING.has(client.status));
    await Promise.all(coming.map((client) => readyOrStop(client, stop.signal)));
    return coming.every((client) => client.status === 'ready');
  })().catch((error: unknown) => {
    logger.debug({ err: error }, "a worker's connection could not be looked at");
    return false;
  });
  let up = false;
  try {
    const outcome = await within(
      ready.then((answer) => {
        up = answer;
      }),
      ms,
    );
    return outcome === 'done' && up;
  } finally {
    stop.abort();
  }
}

/** Resolves once `client` is ready, or `stop` is aborted; never rejects. */
function readyOrStop(client: Connection, stop: AbortSignal): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      client.off('ready', done);
      stop.removeEventListener('abort', done);
      resolve();
    };
    client.once('ready', done);
    stop.addEventListener('abort', done, { once: true });
  });
}

/** The caller's last look before the connections close; its failure only stops the look. */
async function lastLook(ctx: Context, look: () => Promise<void>): Promise<void> {
  try {
    await look();
  } catch (error) {
    ctx.logger.warn({ err: error }, 'the last look before closing failed');
  }
}

/**
 * Drops the workers' own connections at once (their jobs resume later). Their other commands and
 * the queues' go through the process's clients, dropped once every context on them is closed
 * (with the context itself when they are its own).
 */
async function cutOff(workers: readonly Worker[]): Promise<void> {
  const dropped = workers.map((w) => w.getBackend().disconnectBlocking(false));
  await within(Promise.allSettled(dropped), CUT_OFF_MS);
}

/** Whether `work` settled within `ms` (it goes on either way). */
async function within(work: Promise<unknown>, ms: number): Promise<'done' | 'late'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((done) => {
    timer = setTimeout(() => {
      done('late');
    }, ms);
    timer.unref();
  });
  try {
    return await Promise.race([work.then(() => 'done' as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Closes one worker, its jobs in flight finishing first, unless its connections do not come back
 * within REDIS_ANSWER_MS (one told to disconnect while it waits to reconnect never ends, and a
 * graceful close with it): then at once, its jobs resumed later.
 */
export async function closeWorker(worker: Worker, logger: Logger): Promise<void> {
  const away = !(await workersConnected([worker], logger, REDIS_ANSWER_MS));
  await worker.close(away);
}
