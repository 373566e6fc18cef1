/**
 * The folders of a sheet that retention removes (app/retention.ts): its report folder, archived
 * copy, work folder and private copy. Paths read from Redis are hostile input: only a folder
 * directly inside REPORTS_DIR or one of the data folder's own folders, named for this very sheet
 * and no link, is ever removed; anything else is left alone and said.
 */
import { lstat, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

import type { PurgeCandidate } from '../store/sheet-purge.js';

/** Where a configuration keeps a sheet's files. */
export interface PurgeFolders {
  reportsDir: string;
  archiveDir: string;
  workDir: string;
  /** DATA_DIR/sheets: the private copies and their echo files. */
  sheetsDir: string;
}

/** A folder that may be the sheet's, and where it must be to be. */
interface Target {
  path: string;
  root: string;
  suffix: string;
}

/** The sheet's folders, each checked as it goes: how many went (or would), and what was left. */
export async function removeSheetFolders(
  folders: PurgeFolders,
  sheet: Pick<PurgeCandidate, 'sheetId' | 'reportDir'>,
  dryRun: boolean,
): Promise<{ removed: number; refused: string[] }> {
  const refused: string[] = [];
  const targets: Target[] = [
    join(folders.archiveDir, sheet.sheetId),
    join(folders.workDir, sheet.sheetId),
    join(folders.sheetsDir, sheet.sheetId),
  ].map((path) => ({ path, root: dirname(path), suffix: sheet.sheetId }));
  if (sheet.reportDir !== undefined) {
    const report = reportTarget(folders, sheet);
    if (isOwnFolder(report)) targets.unshift(report);
    else refused.push(sheet.reportDir);
  }
  let removed = 0;
  for (const target of targets) {
    const found = await realFolder(target.path);
    if (found === 'link') refused.push(target.path);
    if (found !== 'folder') continue;
    removed += 1;
    // rm never follows a link inside the folder: it removes the link itself.
    if (!dryRun) await rm(target.path, { recursive: true, force: true });
  }
  return { removed, refused };
}

/**
 * A record of an older version names no installation: it is this one's only when its report is in
 * this REPORTS_DIR, else another installation on the same Redis (with the same connection) queued
 * it, and its files and records are that one's to remove.
 */
export function ownByItsFolder(sheet: PurgeCandidate, folders: PurgeFolders): boolean {
  if (sheet.installation !== undefined) return true;
  return sheet.reportDir !== undefined && isOwnFolder(reportTarget(folders, sheet));
}

function reportTarget(
  folders: PurgeFolders,
  sheet: Pick<PurgeCandidate, 'sheetId' | 'reportDir'>,
): Target {
  return { path: sheet.reportDir ?? '', root: folders.reportsDir, suffix: `-${sheet.sheetId}` };
}

/** A folder directly inside `root` whose name ends with the sheet's id (its own, by its name). */
function isOwnFolder(target: Target): boolean {
  const path = resolve(target.path);
  return (
    dirname(path) === resolve(target.root) &&
    basename(path).endsWith(target.suffix) &&
    basename(path) !== '..'
  );
}

/** What lies at `path`, never following a link. */
async function realFolder(path: string): Promise<'folder' | 'link' | 'none'> {
  try {
    const stats = await lstat(path);
    if (stats.isSymbolicLink()) return 'link';
    return stats.isDirectory() ? 'folder' : 'none';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'none';
    throw error;
  }
}
