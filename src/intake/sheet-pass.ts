/**
 * The one pass over a sheet the hot folder takes, made where it lies before it moves: its bytes
 * hashed and scanned in one read (store/sheet-copy.ts, `readInPlace`), then parsed once
 * (store/taken-sheet.ts, `readTaken`): its rows counted, what the report echoes of each written
 * beside its copy-to-be, and the attachments its `files` cells name, which the intake waits for
 * and takes along. Moved into its work folder unchanged, the sheet is submitted with this pass
 * (submit.ts) and not read again; one written to between the pass and the move is taken anew
 * (as is one swapped for a link: take.ts then refuses it), and one changed after the move (or
 * copied, across file systems) is read there as before.
 */
import { mkdir, rm, rmdir } from 'node:fs/promises';
import { dirname } from 'node:path';

import type { Mapping } from '../orders/mapping.js';
import { SheetError } from '../sheets/errors.js';
import { said } from '../sheets/said.js';
import { type ReadInPlace, readInPlace, stillAsRead } from '../store/sheet-copy.js';
import { echoFilePath, readTaken, type TakenPass } from '../store/taken-sheet.js';
import { lstatIfThere } from './files.js';
import type { IntakeState } from './intake-state.js';
import type { PassedSheet } from './submit.js';

/** A sheet's pass made in the inbox. */
export interface InboxPass {
  sheetId: string;
  taken: ReadInPlace;
  pass: TakenPass;
  /** The attachments its rows name, each once. */
  files: string[];
  /** The mapping it was read with. */
  mapping?: Mapping;
  /** Moved into its work folder: the echo file is its own from then on, whatever happens. */
  moved: boolean;
}

/**
 * The pass over the sheet at `path`, to be queued as `sheetId`; `'changed'` when it was written
 * to while it was read (it is taken anew once it holds still). A sheet that cannot be read is a
 * SheetError, as its sheet job would say.
 */
export async function passInInbox(
  intake: IntakeState,
  path: string,
  sheetId: string,
  mapping?: Mapping,
): Promise<InboxPass | 'changed'> {
  const taken = await readInPlace(path).catch((error: unknown) => {
    // Swapped for a link since it was looked at: taken anew, which looks at links first.
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') return undefined;
    throw error;
  });
  if (taken === undefined) return 'changed';
  if (taken.scan === undefined)
    throw taken.refused ?? new SheetError(said('sheets.unreadableFormat'));
  const echo = echoFilePath(intake.ctx.settings.sheetsDir, sheetId);
  await mkdir(dirname(echo), { recursive: true });
  let pass: TakenPass;
  try {
    pass = await readTaken(path, taken.scan, { echo, files: true, ...(mapping && { mapping }) });
    // Parsed through an open of its own: the bytes hashed only if nothing wrote to it since.
    if (!(await stillAsRead(path, taken.version))) {
      await dropInboxPass(intake, sheetId);
      return 'changed';
    }
  } catch (error) {
    await dropInboxPass(intake, sheetId);
    throw error;
  }
  return {
    sheetId,
    taken,
    pass,
    files: pass.files ?? [],
    moved: false,
    ...(mapping && { mapping }),
  };
}

/**
 * Whether the sheet at `path` (not moved yet) was written to since the pass read it, even to the
 * same size and time, or swapped for a link. Gone is not changed: another watcher took it, and
 * the claim says so.
 */
export async function changedSincePass(path: string, inbox: InboxPass): Promise<boolean> {
  if (await stillAsRead(path, inbox.taken.version)) return false;
  return (await lstatIfThere(path)) !== undefined;
}

/**
 * The pass as the sheet moved to `claimed` is submitted with: undefined when the file there is not
 * the one read (written to since, or a copy), which is then read where it is now.
 */
export async function passAfterMove(
  claimed: string,
  inbox: InboxPass,
): Promise<PassedSheet | undefined> {
  if (!(await stillAsRead(claimed, inbox.taken.version, { moved: true }))) return undefined;
  const { scanned, info } = inbox.pass;
  return {
    taken: { ...inbox.taken, copy: claimed },
    pass: { scanned, info: { ...info, path: claimed } },
  };
}

/** Removes what a pass wrote for a sheet that was not taken after all. */
export async function dropInboxPass(intake: IntakeState, sheetId: string): Promise<void> {
  const echo = echoFilePath(intake.ctx.settings.sheetsDir, sheetId);
  await rm(echo, { force: true });
  try {
    await rmdir(dirname(echo));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
  }
}
