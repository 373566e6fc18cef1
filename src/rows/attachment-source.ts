/**
 * Where a row job's files are read from: the sheet's own folder, as its record in Redis names it,
 * and the attachment's path as the sheet wrote it — never a location carried in the job's data,
 * which anyone who can write to Redis (or an older version) may have set.
 */
import type { Context } from '../context.js';
import { type OpenedFile, openInside } from '../orders/open-attachment.js';
import { Refused } from '../errors.js';

/**
 * Opens a sheet's attachment (open-attachment.ts: inside its folder, never through a link), the
 * folder resolved once per sheet (SheetStore.folderOf), not once per file.
 */
export async function openAttachment(
  ctx: {
    store: Pick<Context['store'], 'folderOf'>;
    settings: Pick<Context['settings'], 'maxAttachmentBytes'>;
  },
  sheetId: string,
  path: string,
): Promise<OpenedFile> {
  const sheet = await ctx.store.folderOf(sheetId);
  if (sheet === undefined) {
    throw new Refused(
      'sheet.gone',
      `sheet ${sheetId} has no record in Redis, so the folder of its file "${path}" is unknown.`,
    );
  }
  return openInside(sheet.root, path, {
    maxBytes: ctx.settings.maxAttachmentBytes,
    folder: sheet.folder,
  });
}
