/**
 * What the intake does not take, and says why: a linked sheet, a sheet in a linked folder, a
 * linked attachment (no link is followed, and nothing is read through one). Each is told once
 * per version in the log and in the list of sheets not taken that the dashboard shows.
 */
import { link, rm, rmdir, unlink } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative } from 'node:path';

import { type Words, wordsFor } from '../language/words.js';
import { firstLink } from '../orders/open-attachment.js';
import { type Said, said, say } from '../sheets/said.js';
import { lstatIfThere } from './files.js';
import type { IntakeResult, IntakeState } from './intake-state.js';
import { JOURNAL } from './journal.js';

/**
 * Tells why a path in the inbox is not taken — a log line (English), and an entry in the list of
 * sheets not taken that the dashboard shows (in the office's words) — once per version of it;
 * true when that was news.
 */
export async function tellNotTaken(intake: IntakeState, path: string, why: Said): Promise<boolean> {
  const reason = say(wordsFor('en'), why);
  const stats = await lstatIfThere(path);
  const version = `${stats?.ino ?? ''}:${stats?.mtimeMs ?? ''}:${reason}`;
  if (intake.told.get(path) === version) return false;
  if (intake.told.size >= 10_000) intake.told.clear(); // bounded: at worst something is told twice
  intake.told.set(path, version);
  intake.logger.warn({ path, reason }, 'not taken from the inbox');
  await intake.ctx.notTaken.add(path, say(intake.ctx.words, why));
  return true;
}

/** A refused sheet's result: `refused` the first time, `skipped` once told before. */
export async function refusedSheet(
  intake: IntakeState,
  path: string,
  why: Said,
): Promise<IntakeResult> {
  if (!(await tellNotTaken(intake, path, why))) return { kind: 'skipped', why: 'refused before' };
  intake.ctx.metrics.sheet(intake.ctx.connection.name, 'refused');
  return { kind: 'refused', why: say(wordsFor('en'), why), said: why };
}

/**
 * Why a sheet must not be taken for a link — it is one, or a folder between `root` (the watched
 * or scanned folder) and it is one — or undefined. Nothing is read through the link.
 */
export async function linkedSheetProblem(
  path: string,
  root: string | undefined,
): Promise<Said | undefined> {
  if ((await lstatIfThere(path))?.isSymbolicLink()) return linkedSheetText(path, root);
  if (root === undefined) return undefined;
  const between = relative(root, dirname(path));
  if (between === '' || between.startsWith('..') || isAbsolute(between)) return undefined;
  const link = await firstLink(root, between);
  return link === undefined ? undefined : linkedSheetText(path, root, link);
}

/**
 * Puts a sheet that turned out to be a link (swapped in after it was looked at) back where it
 * was, untaken; never over something that is there now (a hard link of the link fails then, and
 * it stays in `folder`, whose journal goes so that no recovery takes it).
 */
export async function putBackLinkedSheet(
  intake: IntakeState,
  claimed: string,
  source: string,
  folder: string,
): Promise<IntakeResult> {
  await rm(join(folder, JOURNAL), { force: true });
  try {
    await link(claimed, source);
    await unlink(claimed);
    await rmdir(folder);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST' && code !== 'ENOTEMPTY') throw error;
    intake.logger.warn({ sheet: source, left: claimed }, 'linked sheet left where it is');
  }
  return refusedSheet(intake, source, linkedSheetText(source, undefined));
}

/** Why a path is not taken, as a person reads it in `words` (the terminal: the process's). */
export function refusalText(words: Words, refusal: { said: Said }): string {
  return say(words, refusal.said);
}

/**
 * What is told of an attachment that is a link (or reached through one): it stays. `why`: what
 * the attachment's check said of it (orders/open-attachment.ts, in English).
 */
export function attachmentLinkText(sheet: string, why: string): Said {
  return said('sheets.notTaken.attachmentLink', { sheet: basename(sheet), why });
}

function linkedSheetText(path: string, root: string | undefined, folder?: string): Said {
  const shown = root === undefined ? path : relative(root, path);
  return folder === undefined
    ? said('sheets.notTaken.linkedSheet', { path: shown })
    : said('sheets.notTaken.inLinkedFolder', { path: shown, folder });
}
