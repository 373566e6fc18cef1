/**
 * A sheet dropped in the inbox (or found by a schedule) taken into `work/<sheetId>/` once it has
 * stopped changing, with the attachments it names, and submitted. The journal is written before
 * anything moves, so a crash at any step is finished later (recover.ts). An unreadable sheet goes
 * to `failed/`; a linked one stays where it is, told why.
 */
import { mkdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

import { SheetError } from '../sheets/errors.js';
import { moveUnreadableSheet } from './failed.js';
import { fileSignature, isSheetCandidate, lstatIfThere, moveFile, waitStable } from './files.js';
import type { IntakeResult, IntakeState } from './intake-state.js';
import { type Journal, writeJournal } from './journal.js';
import { linkedSheetProblem, putBackLinkedSheet, refusedSheet } from './refuse.js';
import { journalled, journalMapping, mappingAtTake } from './sheet-mapping.js';
import {
  dropInboxPass,
  type InboxPass,
  passAfterMove,
  passInInbox,
  changedSincePass,
} from './sheet-pass.js';
import { bringAttachments, takeableAttachments, waitForAttachments } from './siblings.js';
import { newSheetId, submitSheet } from './submit.js';

/**
 * Takes one sheet; a path already being taken is skipped (watch events repeat). `root` is the
 * watched or scanned folder: no folder between it and the sheet may be a link.
 */
export async function takeSheet(
  intake: IntakeState,
  path: string,
  signal?: AbortSignal,
  root?: string,
): Promise<IntakeResult> {
  if (!isSheetCandidate(path)) return { kind: 'skipped', why: 'not a sheet' };
  if (intake.inFlight.has(path)) return { kind: 'skipped', why: 'already being taken' };
  intake.inFlight.add(path);
  try {
    for (;;) {
      // Looked at again each time: one swapped for a link while it was read is taken anew.
      const linked = await linkedSheetProblem(path, root);
      if (linked !== undefined) return await refusedSheet(intake, path, linked);
      const result = await takeAsItIs(intake, path, signal);
      // Rewritten while its attachments were awaited: its list of files may be another now.
      if (result !== 'changed') return result;
      intake.logger.info({ sheet: path }, 'sheet changed while being taken; taken anew');
    }
  } finally {
    intake.inFlight.delete(path);
    intake.siblingFiles.delete(path); // moved on: the next one there is another sheet
  }
}

/**
 * The sheet as it is now: read once (sheet-pass.ts), which gives the attachments it names, then
 * taken once those are there. What the pass wrote is removed unless the sheet moved.
 */
async function takeAsItIs(
  intake: IntakeState,
  path: string,
  signal?: AbortSignal,
): Promise<IntakeResult | 'changed'> {
  if (!(await waitStable(path, intake.stableMs, signal ? { signal } : {})))
    return { kind: 'skipped', why: 'gone' };
  const read = await fileSignature(path);
  const sheetId = newSheetId(intake.now());
  const mapped = await mappingAtTake(intake, path, signal);
  if (!mapped.ok) return mapped.result;
  let pass: InboxPass | 'changed';
  try {
    pass = await passInInbox(intake, path, sheetId, mapped.mapping);
  } catch (error) {
    if (!(error instanceof SheetError)) throw error;
    return moveUnreadableSheet(intake, path, sheetId, error, mapped.mapping);
  }
  if (pass === 'changed') return 'changed';
  try {
    return await takeWhenReady(intake, path, pass, read, signal);
  } finally {
    if (!pass.moved) await dropInboxPass(intake, sheetId);
  }
}

/** Waits for the attachments the sheet names, then claims it in its folder's turn. */
async function takeWhenReady(
  intake: IntakeState,
  path: string,
  pass: InboxPass,
  read: string | null,
  signal?: AbortSignal,
): Promise<IntakeResult | 'changed'> {
  const files = await takeableAttachments(intake, path, pass.files);
  // Gone is not changed: another watcher took it, and the claim says so.
  const changed = async () => {
    const now = await fileSignature(path);
    return now !== null && now !== read;
  };
  await waitForAttachments(intake, dirname(path), files, changed, signal);

  return inTurn(intake, dirname(path), async () => {
    // Waited for its turn while the process began to stop: it stays in the inbox.
    if (signal?.aborted) return { kind: 'skipped', why: 'stopping' };
    if ((await changed()) || (await changedSincePass(path, pass))) return 'changed';
    const journal = {
      source: path,
      files,
      queued: false,
      connection: intake.ctx.connection.id,
      ...journalled(pass.mapping),
    };
    return claimSheet(intake, journal, pass);
  });
}

/**
 * Moves the sheet into its work folder, its journal written first: of several watchers, the
 * first rename wins; the others find the sheet gone.
 */
async function claimSheet(
  intake: IntakeState,
  journal: Journal,
  pass: InboxPass,
): Promise<IntakeResult> {
  const { source } = journal;
  const { sheetId } = pass;
  const work = join(intake.workDir, sheetId);
  await mkdir(work, { recursive: true });
  await writeJournal(work, journal);
  try {
    await moveFile(source, join(work, basename(source)));
    pass.moved = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await rm(work, { recursive: true, force: true }); // only our own journal is in it
    return { kind: 'skipped', why: 'taken by another watcher' };
  }
  intake.logger.info({ sheetId, sheet: source }, 'sheet taken from the inbox');
  try {
    return await finishIntake(intake, work, journal, pass);
  } catch (error) {
    intake.logger.error(
      { sheetId, sheet: source, work, err: error },
      'intake stopped after the sheet was moved to work/: the next recovery pass finishes it',
    );
    throw error;
  }
}

/**
 * Sheets of one folder are moved out one after the other: each then sees the sheets still
 * waiting beside it, and copies the documents they share instead of taking them away.
 */
async function inTurn<T>(intake: IntakeState, folder: string, work: () => Promise<T>): Promise<T> {
  const before = intake.folderTurns.get(folder) ?? Promise.resolve();
  const mine = before.then(work, work);
  const done = mine.then(
    () => undefined,
    () => undefined,
  );
  intake.folderTurns.set(folder, done);
  try {
    return await mine;
  } finally {
    if (intake.folderTurns.get(folder) === done) intake.folderTurns.delete(folder);
  }
}

/**
 * Brings the attachments that are still beside the source, then submits the sheet and marks
 * its journal queued: what is left of an intake once its sheet is in the work folder (here, or
 * when a recovery pass finds one a crash interrupted). `inbox`: the pass made before it moved
 * (none after a crash: the sheet is then read here).
 */
export async function finishIntake(
  intake: IntakeState,
  work: string,
  journal: Journal,
  inbox?: InboxPass,
): Promise<IntakeResult> {
  intake.finishing.add(work);
  try {
    const claimed = join(work, basename(journal.source));
    // Swapped for a link between the look and the claim (the rename moved the link itself).
    if ((await lstatIfThere(claimed))?.isSymbolicLink()) {
      if (inbox) await dropInboxPass(intake, inbox.sheetId);
      return await putBackLinkedSheet(intake, claimed, journal.source, work);
    }
    const mapping = journalMapping(journal, work);
    const from = await bringAttachments(intake, work, journal, mapping);
    const sheetId = basename(work);
    const passed = inbox && (await passAfterMove(claimed, inbox));
    // Out of the inbox, in a folder of the importer's own: its own private copy.
    const { resumed } = await submitSheet(intake.ctx, claimed, {
      sheetId,
      inPlace: true,
      ...(mapping && { mapping }),
      ...(passed && { passed }),
    });
    await writeJournal(work, { ...journal, queued: true });
    await intake.ctx.notTaken.taken(journal.source);
    return { kind: 'queued', sheetId, resumed, from };
  } finally {
    intake.finishing.delete(work);
  }
}
