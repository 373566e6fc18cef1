/** The sheets of a folder and its subfolders: what a schedule's scan and the inbox rescan take. */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

import { isIgnoredPath, isSheetCandidate } from './files.js';

/** Folders deeper than this in the inbox (or a scanned folder) are not looked into. */
export const MAX_DEPTH = 32;

/**
 * Every sheet in a folder and its subfolders, sorted. A linked sheet is listed, for the intake
 * to refuse it and say why; a linked folder is not entered.
 */
export async function sheetsIn(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (folder: string, depth: number) => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      if (isIgnoredPath(entry.name)) continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory() && depth < MAX_DEPTH) await walk(path, depth + 1);
      else if ((entry.isFile() || entry.isSymbolicLink()) && isSheetCandidate(path))
        found.push(path);
    }
  };
  await walk(dir, 0);
  return found.sort();
}
