/**
 * Finishing the intakes a crash (or a failure half-way: a file locked, a share gone a moment)
 * interrupted: at start, and in passes while watching. Their journals tell how far each got.
 */
import { readdir, rm, rmdir } from 'node:fs/promises';
import { basename, join } from 'node:path';

import { exists, statIfThere } from './files.js';
import type { IntakeState, Recovery } from './intake-state.js';
import { JOURNAL, type Journal, readJournal, writeJournal } from './journal.js';
import { finishIntake } from './take.js';

/**
 * A work folder whose sheet arrived gets its attachments and its queueing; one whose sheet never
 * arrived is dropped (the sheet is still in the inbox and will be taken again). `minAgeMs`
 * leaves alone the journals younger than that, which are most likely another process's intake
 * under way (finishing one twice does no harm, but is not needed).
 */
export async function recoverIntakes(
  intake: IntakeState,
  { minAgeMs = 0 } = {},
): Promise<Recovery> {
  const recovery: Recovery = { finished: [], stranded: [] };
  for (const sheetId of await readdir(intake.workDir).catch(() => [])) {
    const work = join(intake.workDir, sheetId);
    if (intake.finishing.has(work)) continue;
    const written = (await statIfThere(join(work, JOURNAL)))?.mtimeMs;
    // A folder with no journal is named (by readJournal) at start only, not at every pass.
    if (written === undefined ? minAgeMs > 0 : intake.now() - written < minAgeMs) continue;
    const journal = await readJournal(intake, work);
    if (!journal) continue;
    // Another office's sheet, whose own intake (in this process or another) finishes it.
    if (journal.connection !== undefined && journal.connection !== intake.ctx.connection.id)
      continue;
    if (journal.queued) {
      // Queued, yet unknown to Redis (its data lost): importing it again could send orders
      // twice, so it waits for a person, who is told.
      if ((await intake.ctx.store.get(sheetId)) === undefined) {
        intake.logger.warn({ sheetId, work }, 'queued sheet unknown to Redis; left alone');
        recovery.stranded.push(work);
      }
      continue;
    }
    if (!(await exists(join(work, basename(journal.source))))) {
      await dropEmptyWork(intake, work, journal);
      continue;
    }
    const result = await finishIntake(intake, work, journal);
    if (result.kind === 'queued') recovery.finished.push(result.sheetId);
  }
  return recovery;
}

/**
 * Removes a work folder whose sheet never arrived: its journal, then the folder itself only if
 * empty. Another watch process may be moving the sheet in this very moment; rmdir then
 * refuses, and the sheet stays (never `rm -r` here).
 */
async function dropEmptyWork(intake: IntakeState, work: string, journal: Journal): Promise<void> {
  await rm(join(work, JOURNAL), { force: true });
  try {
    await rmdir(work);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'ENOENT') throw error;
    if (code === 'ENOENT') return;
    // Its sheet is arriving after all: the journal goes back, for whoever finishes it.
    await writeJournal(work, journal);
    intake.logger.warn({ work }, 'work folder not empty after all; left as it is');
  }
}
