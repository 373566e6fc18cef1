/**
 * The mapping of a sheet the hot folder takes (docs/design.md §2 "Mapping"): found when the sheet
 * is taken — `--mapping`, a `mapping.json` beside it, the connection's, the config file's — and
 * kept in its journal, then in its record in Redis: it travels with the sheet, so a recovery
 * after a crash, or a worker on another host, maps it as it was mapped when taken, whatever
 * happened to the inbox since.
 */
import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';

import { isMappingFile, resolveMapping } from '../orders/mapping-files.js';
import { type Mapping, mappingFromRecord, mappingRecord } from '../orders/mapping.js';
import { statIfThere, waitStable } from './files.js';
import type { IntakeResult, IntakeState } from './intake-state.js';
import type { Journal } from './journal.js';
import { refusedSheet } from './refuse.js';
import { said } from '../sheets/said.js';
import { isKnown } from '../errors.js';

/** A sheet's mapping when it is taken, or why it is not taken yet. */
export type MappingAtTake = { ok: true; mapping?: Mapping } | { ok: false; result: IntakeResult };

/**
 * The mapping of the sheet at `path`. A `mapping.json` beside it is read once it has stopped
 * changing (a folder being copied brings it along). One that cannot be used leaves the sheet
 * where it is, told why: it is taken once the mapping is fixed, never mapped otherwise.
 */
export async function mappingAtTake(
  intake: IntakeState,
  path: string,
  signal?: AbortSignal,
): Promise<MappingAtTake> {
  const folder = dirname(path);
  try {
    if (intake.mappings.flag === undefined) await besideStable(intake, folder, signal);
    const mapping = await resolveMapping(intake.mappings, folder);
    return mapping === undefined ? { ok: true } : { ok: true, mapping };
  } catch (error) {
    if (!isKnown(error, 'mapping.invalid')) throw error;
    const why = said('sheets.notTaken.mapping', { path, reason: error.message });
    return { ok: false, result: await refusedSheet(intake, path, why) };
  }
}

/** Waits for a mapping.json changed within INBOX_STABLE_MS to stop changing; an older one is read at once. */
async function besideStable(intake: IntakeState, folder: string, signal?: AbortSignal) {
  const names = await readdir(folder).catch(() => []);
  for (const name of names.filter(isMappingFile)) {
    const path = join(folder, name);
    const stats = await statIfThere(path);
    if (stats === undefined || intake.now() - stats.mtimeMs >= intake.stableMs) continue;
    await waitStable(path, intake.stableMs, signal ? { signal } : {});
  }
}

/** The mapping as the journal keeps it. */
export function journalled(mapping: Mapping | undefined): Pick<Journal, 'mapping'> {
  return mapping === undefined ? {} : { mapping: mappingRecord(mapping) };
}

/** The mapping a journal kept (none in a journal of a sheet without one, or of an older version). */
export function journalMapping(journal: Journal, work: string): Mapping | undefined {
  return journal.mapping === undefined ? undefined : mappingFromRecord(journal.mapping, work);
}
