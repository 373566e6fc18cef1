/**
 * What stops a sheet job before it reads anything: a sheet of another connection is refused for
 * good; one whose copy is on another installation's disk, or whose content an earlier sheet is
 * still importing, is not ready yet (its job goes back to the queue, no attempt spent).
 */
import type { Context } from '../context.js';
import { NotYet, Refused } from '../errors.js';
import { DUPLICATE_SHEET_WAIT_MS } from '../policy.js';
import { awayFromHome } from '../store/sheet-home.js';
import type { SheetRecord } from '../store/sheet-store.js';

/** Throws when the sheet's job may not go on here or now; else the earlier sheet of its content. */
export async function readyOrThrow(
  ctx: Context,
  sheet: SheetRecord,
  started: number,
): Promise<SheetRecord | undefined> {
  const { sheetId } = sheet;
  if (sheet.connectionId !== ctx.connection.id) {
    // Not offered by its own queue: a job moved or forged in Redis. Its rows are not ours to send.
    throw new Refused(
      'sheet.foreign',
      `sheet ${sheetId} belongs to connection ${sheet.connectionId ?? '(none)'}, not ${ctx.connection.id}: nothing of it is sent from here.`,
    );
  }
  // Its private copy is on the disk of the installation that queued it.
  const away = await awayFromHome(ctx, sheetId, started);
  if (away !== undefined) throw away;
  // Its rows are told what became of them in the earlier import, so that must be over first.
  const earlierSheet =
    sheet.duplicateOf === undefined ? undefined : await ctx.store.get(sheet.duplicateOf);
  if (earlierSheet !== undefined && earlierSheet.state !== 'done') {
    throw new NotYet(
      'sheet.waits-for-earlier',
      `waits for sheet ${sheet.duplicateOf ?? ''}, the same content`,
      { retryInMs: DUPLICATE_SHEET_WAIT_MS },
    );
  }
  return earlierSheet;
}
