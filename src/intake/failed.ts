/**
 * A sheet that cannot be read goes to `failed/<sheetId>-<name>/` with an `error.txt` saying why,
 * and is told in the list of sheets not taken and by a `sheet.unreadable` notification: no order
 * is made from it, nothing is deleted.
 */
import { writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

import { queueNotification } from '../notify/queue-notification.js';
import { describeMapping, type Mapping } from '../orders/mapping.js';
import type { SheetError } from '../sheets/errors.js';
import { lstatIfThere, moveFile } from './files.js';
import type { IntakeResult, IntakeState } from './intake-state.js';
import { putBackLinkedSheet } from './refuse.js';

export async function moveUnreadableSheet(
  intake: IntakeState,
  path: string,
  sheetId: string,
  error: SheetError,
  /** The mapping it was read with, named in the error file. */
  mapping?: Mapping,
): Promise<IntakeResult> {
  const folder = join(intake.failedDir, `${sheetId}-${basename(path)}`);
  const moved = join(folder, basename(path));
  // Told before it moves: a crash between the two still tells it (the sheet, still in the inbox,
  // is taken again under a new id and told again), a crash after the move could not.
  await queueNotification(intake.ctx, {
    kind: 'sheet.unreadable',
    sheet: path,
    sheetId,
    reason: error.message,
    movedTo: folder,
  });
  await moveFile(path, moved);
  intake.ctx.metrics.sheet(intake.ctx.connection.name, 'unreadable');
  // Swapped for a link while it was read: what was read is not the user's to show.
  if ((await lstatIfThere(moved))?.isSymbolicLink())
    return putBackLinkedSheet(intake, moved, path, folder);
  const mapped =
    mapping === undefined
      ? ''
      : `It was read with the mapping ${describeMapping(mapping.source)}.\n\n`;
  await writeFile(
    join(folder, 'error.txt'),
    `${basename(path)} cannot be read, so no order was made from it:\n\n${error.message}\n\n${mapped}Fix the sheet and drop it into the inbox again.\n`,
  );
  intake.logger.warn(
    { sheet: path, folder, reason: error.message },
    'unreadable sheet moved to failed/',
  );
  await intake.ctx.notTaken.add(
    path,
    `cannot be read, so it was moved to ${folder}: ${error.message}`,
  );
  return { kind: 'unreadable', folder, from: [dirname(path)] };
}
