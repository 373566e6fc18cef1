/**
 * The intake's journal: written first into each work folder, it says where the sheet came from,
 * which attachments it names, the mapping it is read with and whether it was queued, so that an intake a crash interrupted is
 * finished later (recover.ts), and sheets beside it know what it still needs (siblings.ts).
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

import { z } from 'zod';

import type { IntakeState } from './intake-state.js';

const journalSchema = z.object({
  source: z.string(),
  files: z.array(z.string()),
  queued: z.boolean(),
  /**
   * The id of the connection that took it: only an intake of that connection finishes it (a
   * journal of an older version has none, and any intake may).
   */
  connection: z.string().optional(),
  /** The sheet's mapping when it was taken (sheet-mapping.ts), checked again where it is used. */
  mapping: z.unknown().optional(),
});
export type Journal = z.infer<typeof journalSchema>;

/** The journal's name in a work folder. */
export const JOURNAL = '.intake.json';

export async function writeJournal(work: string, journal: Journal): Promise<void> {
  await writeFile(join(work, JOURNAL), `${JSON.stringify(journal, null, 2)}\n`);
}

/**
 * A work folder's journal, or undefined (said in the log) when it has none that can be read.
 * `quiet`: another intake may be writing it this very moment, so a miss is no news.
 */
export async function readJournal(
  intake: IntakeState,
  work: string,
  { quiet = false } = {},
): Promise<Journal | undefined> {
  try {
    return journalSchema.parse(JSON.parse(await readFile(join(work, JOURNAL), 'utf8')));
  } catch (error) {
    const midWrite =
      error instanceof SyntaxError || (error as NodeJS.ErrnoException).code === 'ENOENT';
    if (quiet && midWrite) return undefined;
    intake.logger.warn({ work, err: error }, 'work folder without a readable intake journal');
    return undefined;
  }
}

/**
 * The journal an archived work folder kept (for `ledger rebuild`: the mapping its sheet was read
 * with), or undefined when it has none that can be read.
 */
export async function archivedJournal(work: string): Promise<Journal | undefined> {
  let text: string;
  try {
    text = await readFile(join(work, JOURNAL), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const parsed = journalSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch (error) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}

/**
 * The attachments (as the sheets name them) of the sheets from `dir` whose intake is under way
 * in another work folder than `work`, perhaps by another watch process: not yet queued, and not
 * `sheet` itself (a watcher that lost the race for it leaves a journal a moment).
 */
export async function filesOfIntakesUnderway(
  intake: IntakeState,
  sheet: string,
  work: string,
): Promise<string[]> {
  const files: string[] = [];
  for (const other of await readdir(intake.workDir).catch(() => [])) {
    const folder = join(intake.workDir, other);
    if (folder === work) continue;
    const journal = await readJournal(intake, folder, { quiet: true });
    if (
      journal &&
      !journal.queued &&
      journal.source !== sheet &&
      dirname(journal.source) === dirname(sheet)
    )
      files.push(...journal.files);
  }
  return files;
}
