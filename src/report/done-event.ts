/**
 * report → notify: a sheet's `sheet.done`, queued before its report job completes, so that a
 * crash between "report written" and "delivered" still delivers: the report job, run again,
 * finds the report written and queues the event again (the same id: one delivery).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import type { Context } from '../context.js';
import type { SheetSummary } from '../notify/events.js';
import { queueNotification } from '../notify/queue-notification.js';
import type { SheetRecord } from '../store/sheet-store.js';

export async function tellDone(ctx: Context, summary: SheetSummary): Promise<void> {
  await queueNotification(ctx, { kind: 'sheet.done', summary });
}

/** A report written by an earlier run of the job: its event, from its summary.json. */
export async function tellDoneAgain(ctx: Context, sheet: SheetRecord): Promise<void> {
  if (ctx.settings.notify === undefined || sheet.reportDir === undefined) return;
  let summary: SheetSummary;
  try {
    summary = JSON.parse(
      await readFile(join(sheet.reportDir, 'summary.json'), 'utf8'),
    ) as SheetSummary;
  } catch (error) {
    // A report folder moved or removed by hand since: nothing left to tell from.
    ctx.logger.warn(
      { sheetId: sheet.sheetId, reportDir: sheet.reportDir, err: error },
      'sheet.done not told again: its summary.json cannot be read',
    );
    return;
  }
  await tellDone(ctx, summary);
}
