/**
 * The rows queue's high water mark: a sheet job stops handing rows on while the office's queue
 * holds more than it, so that Redis's memory stays bounded on big sheets (DESIGN §4). It holds a
 * sheet back only beyond its share of the queue, so that every sheet keeps rows there to take
 * turns with (turns.ts), and a held sheet job gives its place up to a sheet job never worked yet,
 * so that two big sheets held back do not keep a third sheet's job from being worked at all.
 */
import { setTimeout as sleep } from 'node:timers/promises';

import { type Context, stopSignals } from '../context.js';
import { NotYet } from '../errors.js';
import { interruptibleWait } from '../stopping.js';
import { HIGH_WATER_LOOK_MS, HIGH_WATER_SHARE, ROWS_HIGH_WATER } from '../policy.js';

/**
 * Waits while more rows than the high water mark are queued and not yet run, and more than its
 * share of them are this sheet's (`handed` rows handed on, less those final). Delayed rows count:
 * a worker of another data folder hands this sheet's rows back as delayed, and rows waiting for
 * a retry or the API's turn are in Redis all the same (one round trip: one counting script).
 * Throws NotYet (its job back to the queue, behind that one, no attempt spent) when the sheet
 * job next in line has never been worked: a sheet dropped meanwhile.
 */
export async function backpressure(ctx: Context, sheetId: string, handed: number): Promise<void> {
  const highWater = ctx.settings.rowsHighWater ?? ROWS_HIGH_WATER;
  const share = Math.floor(highWater * HIGH_WATER_SHARE);
  const full = async () =>
    (await ctx.queues.rows.getJobCountByTypes('waiting', 'prioritized', 'delayed')) > highWater &&
    handed - (await ctx.store.finalCount(sheetId)) > share;
  while (await full()) {
    if (await newSheetNext(ctx))
      throw new NotYet(
        'sheet.gives-way',
        'held back by the full rows queue: a new sheet goes first',
      );
    // Rows drain only while workers run: a stopping process hands the sheet back instead.
    await interruptibleWait(
      (signal) => sleep(HIGH_WATER_LOOK_MS, undefined, signal && { signal }),
      stopSignals(ctx),
    );
  }
}

/**
 * Whether the sheet job a worker takes next has never been worked. Only such a one: a job handed
 * back before (this one, once it gave way; one waiting for another disk or an earlier import of
 * the same content) is not given way to, so two held sheet jobs never hand each other back in
 * turn, and each giving way (whose job reads its sheet again to its checkpoint) is once a sheet.
 */
async function newSheetNext(ctx: Context): Promise<boolean> {
  const [next] = await ctx.queues.sheets.getWaiting(0, 0);
  return next !== undefined && next.attemptsStarted === 0;
}
