/**
 * A sheet that cannot be read goes to `failed/<sheetId>-<name>/` with an `error.txt` saying why,
 * and is told in the list of sheets not taken and by a `sheet.unreadable` notification: no order
 * is made from it, nothing is deleted.
 */
import { writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

import { queueNotification } from '../notify/queue-notification.js';
import type { Words } from '../language/words.js';
import type { Mapping } from '../orders/mapping.js';
import { type SheetError, sheetText } from '../sheets/errors.js';
import { mappingSource, said, say } from '../sheets/said.js';
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
  const { words } = intake.ctx;
  // Told before it moves: a crash between the two still tells it (the sheet, still in the inbox,
  // is taken again under a new id and told again), a crash after the move could not. Its reason
  // in the office's words, as the sheet's stored error is (sheet.done's summary).
  await queueNotification(intake.ctx, {
    kind: 'sheet.unreadable',
    sheet: path,
    sheetId,
    reason: sheetText(words, error),
    movedTo: folder,
  });
  await moveFile(path, moved);
  intake.ctx.metrics.sheet(intake.ctx.connection.name, 'unreadable');
  // Swapped for a link while it was read: what was read is not the user's to show.
  if ((await lstatIfThere(moved))?.isSymbolicLink())
    return putBackLinkedSheet(intake, moved, path, folder);
  await writeFile(join(folder, 'error.txt'), errorText(words, basename(path), error, mapping));
  intake.logger.warn(
    { sheet: path, folder, reason: error.message },
    'unreadable sheet moved to failed/',
  );
  await intake.ctx.notTaken.add(
    path,
    words.t('sheets.failed.notTaken', { folder, reason: sheetText(words, error) }),
  );
  return { kind: 'unreadable', folder, from: [dirname(path)] };
}

/** The whole of error.txt, in the office's words: what is wrong, the mapping read with, what to do. */
export function errorText(
  words: Words,
  name: string,
  error: SheetError,
  mapping: Mapping | undefined,
): string {
  const parts = [words.t('sheets.failed.cannotBeRead', { name }), sheetText(words, error)];
  if (mapping !== undefined) {
    parts.push(
      say(words, said('sheets.failed.readWith', { mapping: mappingSource(mapping.source) })),
    );
  }
  parts.push(words.t('sheets.failed.fix'));
  return `${parts.join('\n\n')}\n`;
}
