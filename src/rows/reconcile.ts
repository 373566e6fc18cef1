/**
 * The reconciler, run every 30 s by each working process over the offices it holds
 * (workers/doorbell.ts). It catches what a lost signal leaves behind:
 * - a row or sheet job BullMQ gave up on while no worker was there to hear it: its row gets its
 *   status (its sheet closes early), then the job is removed from the failed set, so that the
 *   next pass reads only what failed since. Settling comes first: a process that dies between
 *   the two leaves a job whose settling again changes nothing (a row keeps its first result),
 *   and the next pass removes it;
 * - a sheet whose rows are all final but whose report was never queued.
 * Only the installation's own (docs/design.md "One installation, one namespace"): another
 * installation on the same Redis and prefix, even with the same connection, has its sheets' files
 * on its own disk and its own reconciler; its jobs and sheets are left to it.
 */
import type { Job, Queue } from 'bullmq';

import type { Context } from '../context.js';
import { reportIfDue } from '../report/due.js';
import { isOwnSheet } from '../store/sheet-home.js';
import { giveUpJob } from './give-up.js';

/** Failed jobs read at once. */
const PAGE = 500;

/** What one pass settled. */
export interface Reconciled {
  /** Failed row jobs settled (now or before) and removed. */
  rows: number;
  /** Failed sheet jobs settled (now or before) and removed. */
  sheets: number;
  /** Reports queued for sheets whose signal was lost. */
  reports: number;
}

export async function reconcile(ctx: Context): Promise<Reconciled> {
  return reconcileOffices([ctx]);
}

/**
 * One pass over the offices a process holds: each one's failed jobs, then the active sheets of
 * each key space once (one for all offices on a server, each office's own on a Cluster), each
 * asked about with its own office's context (another office's sheet, or one of an office this
 * process does not hold, is left alone).
 */
export async function reconcileOffices(contexts: readonly Context[]): Promise<Reconciled> {
  const done: Reconciled = { rows: 0, sheets: 0, reports: 0 };
  // Most offices have no failed job: counted first, all at once (one batch of ZCARDs), rather
  // than a page of jobs asked for each.
  const failed = await Promise.all(
    contexts.map((ctx) =>
      Promise.all([failedCount(ctx, 'rows'), failedCount(ctx, 'sheets')] as const),
    ),
  );
  for (const [i, ctx] of contexts.entries()) {
    const [rows = 0, sheets = 0] = failed[i] ?? [];
    if (rows > 0) done.rows += await settleFailed(ctx, 'rows');
    if (sheets > 0) done.sheets += await settleFailed(ctx, 'sheets');
  }
  for (const space of keySpaces(contexts)) done.reports += await reportsDue(space);
  return done;
}

/** The offices' contexts by the key space their stores read (store/keys.ts, `KeyLayout`). */
function keySpaces(contexts: readonly Context[]): Array<Map<string, Context>> {
  const spaces = new Map<string, Map<string, Context>>();
  for (const ctx of contexts) {
    const space = spaces.get(ctx.keys.prefix) ?? new Map<string, Context>();
    space.set(ctx.connection.id, ctx);
    spaces.set(ctx.keys.prefix, space);
  }
  return [...spaces.values()];
}

/** Queues the reports due of one key space's active sheets; how many. */
async function reportsDue(byConnection: ReadonlyMap<string, Context>): Promise<number> {
  const [first] = byConnection.values();
  if (first === undefined) return 0;
  let queued = 0;
  for (const sheetId of await first.store.activeSheets()) {
    const connectionId = (await first.store.get(sheetId))?.connectionId;
    const ctx = connectionId === undefined ? undefined : byConnection.get(connectionId);
    if (ctx === undefined || !(await isOwnSheet(ctx, sheetId))) continue;
    if ((await reportIfDue(ctx, sheetId, { lostSignal: true })).queued) queued += 1;
  }
  return queued;
}

/** How many jobs the queue's failed set holds. */
function failedCount(ctx: Context, name: 'rows' | 'sheets'): Promise<number> {
  return ctx.redis.zcard(ctx.queues[name].toKey('failed'));
}

/**
 * Settles the failed jobs of a queue, oldest first (a job failing meanwhile goes to the end, not
 * between the pages), and removes each one settled; a job not this connection's stays, and the
 * next page starts after those kept.
 */
async function settleFailed(ctx: Context, name: 'rows' | 'sheets'): Promise<number> {
  const queue = ctx.queues[name];
  let settled = 0;
  let kept = 0;
  for (;;) {
    const failed = await queue.getJobs(['failed'], kept, kept + PAGE - 1, true);
    for (const job of failed) {
      if (await settleOne(ctx, name, queue, job)) settled += 1;
      else kept += 1;
    }
    if (failed.length < PAGE) return settled;
  }
}

/** Whether the job was settled and removed. */
async function settleOne(
  ctx: Context,
  name: 'rows' | 'sheets',
  queue: Queue,
  job: Job,
): Promise<boolean> {
  // giveUpJob leaves another installation's job alone (false): it stays for that one's reconciler.
  if (!(await giveUpJob(ctx, name, job, job.failedReason || 'failed'))) return false;
  // 0: locked, as when someone retried the job meanwhile and a worker took it: it is then no
  // longer in the failed set, nor settled by us twice (its row is final).
  if (job.id !== undefined) await queue.remove(job.id);
  return true;
}
