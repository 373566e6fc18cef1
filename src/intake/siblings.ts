/**
 * What a sheet carries along from its folder: the attachments it names, moved into its work
 * folder — or copied when another sheet beside it (a sibling) still needs them, as with a
 * `documents/` folder several sheets share: the last sheet to need a file takes it along.
 */
import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';

import { type Mapping, mappingRecord } from '../orders/mapping.js';
import {
  AttachmentRefused,
  copyInside,
  firstLink,
  linkMessage,
  moveInside,
  plainRelative,
} from '../orders/open-attachment.js';
import { SheetError } from '../sheets/errors.js';
import { exists, isSheetCandidate, statIfThere, waitStable } from './files.js';
import type { IntakeState } from './intake-state.js';
import { filesOfIntakesUnderway, type Journal } from './journal.js';
import { filesNamedIn } from './named-files.js';
import { attachmentLinkText, tellNotTaken } from './refuse.js';
import { ATTACHMENT_LOOK_MS, inboxWaits } from '../policy.js';

/**
 * The attachments the intake may take along: those inside the sheet's folder and reached
 * without a link. A link is told (once) and stays; its row's validation then refuses it.
 */
export async function takeableAttachments(
  intake: IntakeState,
  sheet: string,
  files: readonly string[],
): Promise<string[]> {
  const dir = dirname(sheet);
  const takeable: string[] = [];
  for (const file of files) {
    const plain = plainOrUndefined(file);
    if (plain === undefined) continue;
    const link = await firstLink(dir, plain);
    if (link === undefined) takeable.push(plain);
    else
      await tellNotTaken(
        intake,
        join(dir, plain),
        attachmentLinkText(sheet, linkMessage(file, link)),
      );
  }
  return takeable;
}

/** Waits (bounded) for attachments still being copied next to the sheet. */
export async function waitForAttachments(
  intake: IntakeState,
  dir: string,
  files: readonly string[],
  sheetChanged: () => Promise<boolean>,
  signal?: AbortSignal,
): Promise<void> {
  const deadline = intake.now() + inboxWaits(intake.stableMs).attachmentsWaitMs;
  await Promise.all(
    files.map(async (file) => {
      const path = join(dir, file);
      // A sheet rewritten meanwhile may no longer name the file: no use waiting for it.
      while (!(await exists(path)) && intake.now() < deadline && !(await sheetChanged())) {
        await new Promise((resolve) => setTimeout(resolve, ATTACHMENT_LOOK_MS));
        if (signal?.aborted) return;
      }
      await waitStable(path, intake.stableMs, { deadline, ...(signal && { signal }) });
    }),
  );
}

/**
 * Brings the journal's attachments that are still beside the source into the work folder: a
 * link stays (and is told); one a sibling still needs is copied. Returns the folders files were
 * moved out of, which may now be empty. `mapping`: the sheet's, which its siblings (in the same
 * folder) are read with too.
 */
export async function bringAttachments(
  intake: IntakeState,
  work: string,
  journal: Journal,
  mapping?: Mapping,
): Promise<string[]> {
  const sourceDir = dirname(journal.source);
  const stillNeeded = await neededBySiblings(intake, journal.source, work, mapping);
  const keep = (file: string) => stillNeeded === 'all' || stillNeeded.has(file);
  const emptied = new Set([sourceDir]);
  for (const file of journal.files) {
    // Only inside the sheet's own folder, as validation demands; others stay where they are.
    const plain = plainOrUndefined(file);
    if (plain === undefined) continue;
    const from = join(sourceDir, plain);
    try {
      if (keep(from)) await copyInside(sourceDir, plain, join(work, plain));
      else {
        await moveInside(sourceDir, plain, join(work, plain));
        emptied.add(dirname(from));
      }
    } catch (error) {
      if (error instanceof AttachmentRefused) {
        // A link: it stays, and is told. Anything else refused is what validation will tell.
        if (error.kind === 'link')
          await tellNotTaken(intake, from, attachmentLinkText(journal.source, error.message));
        continue;
      }
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error; // moved already, or never there
    }
  }
  return [...emptied];
}

/**
 * The attachments (absolute paths) that the other sheets beside this one name, and those of
 * sheets from the same folder whose intake is under way elsewhere (another watch process);
 * `'all'` while a sibling is still being written, since what it will name is not known yet.
 */
async function neededBySiblings(
  intake: IntakeState,
  sheet: string,
  work: string,
  mapping?: Mapping,
): Promise<Set<string> | 'all'> {
  const dir = dirname(sheet);
  const needed = new Set<string>();
  // A sibling read before with another mapping (mapping.json edited since) is read again.
  const mapped = mapping === undefined ? '' : JSON.stringify(mappingRecord(mapping));
  const siblings = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of siblings) {
    const path = join(dir, entry.name);
    if (!entry.isFile() || path === sheet || !isSheetCandidate(path)) continue;
    const stats = await statIfThere(path);
    if (stats === undefined) continue; // taken meanwhile: its journal, read below, tells
    if (intake.now() - stats.mtimeMs < intake.stableMs) return 'all';
    try {
      const version = `${stats.size}:${stats.mtimeMs}:${mapped}`;
      for (const file of await siblingFiles(intake, path, version, mapping))
        needed.add(join(dir, file));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // taken meanwhile
      if (!(error instanceof SheetError)) throw error; // an unreadable sibling needs nothing
    }
  }
  // After the siblings: one taken away meanwhile wrote its journal before it went.
  for (const file of await filesOfIntakesUnderway(intake, sheet, work)) needed.add(join(dir, file));
  return needed;
}

/**
 * A sibling's attachments, read once per version of it: a folder of many sheets would
 * otherwise have every sheet read by every other one.
 */
async function siblingFiles(
  intake: IntakeState,
  path: string,
  version: string,
  mapping?: Mapping,
): Promise<readonly string[]> {
  const known = intake.siblingFiles.get(path);
  if (known?.version === version) return known.files;
  const files = await filesNamedIn(path, mapping);
  intake.siblingFiles.set(path, { version, files });
  return files;
}

/** An attachment's path made plain, or undefined for one that leads out of its sheet's folder. */
function plainOrUndefined(file: string): string | undefined {
  try {
    return plainRelative(file);
  } catch (error) {
    if (error instanceof AttachmentRefused) return undefined;
    throw error;
  }
}
