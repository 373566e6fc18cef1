/**
 * The scheduled refresh of `watch` (STATUS_SYNC_CRON): each firing queues one status job per
 * sheet of this connection reported in the last STATUS_DAYS, and each such job reads one sheet's
 * orders back. A job names only its sheet: where the report is, and whose it is, is found again
 * by the worker that reads it.
 */
import type { Context } from '../context.js';
import { queueStatus } from '../queue/queues.js';
import { recentReports, reportOfSheet } from './report-folder.js';
import { refreshSheetStatus, type SheetStatus } from './status.js';
import { STATUS_DAYS } from '../policy.js';
import { UserError } from '../errors.js';

/**
 * Queues this run's status job of every recent sheet of the context's connection (another
 * connection's sheets are its own workers' to read); returns how many.
 */
export async function queueStatusRun(ctx: Context, run: string): Promise<number> {
  const sheets = await recentReports(
    ctx.settings.reportsDir,
    ctx.settings.statusDays ?? STATUS_DAYS,
    ctx.now(),
    (problem) => {
      ctx.logger.warn({ reason: problem.message }, 'report folder not read back');
    },
  );
  const mine = sheets.filter((sheet) => sheet.connectionId === ctx.connection.id);
  for (const sheet of mine) await queueStatus(ctx.queues, sheet.sheetId, run);
  return mine.length;
}

/** One sheet's status job: its report found by its id, read unless all its orders are final. */
export async function refreshQueuedSheet(ctx: Context, sheetId: string): Promise<SheetStatus> {
  const sheet = await reportOfSheet(ctx.settings.reportsDir, sheetId);
  if (sheet === undefined)
    throw new UserError(
      'report-folder.unusable',
      `sheet ${sheetId} has no report in ${ctx.settings.reportsDir}.`,
    );
  return refreshSheetStatus(ctx, sheet, { skipFinal: true });
}
