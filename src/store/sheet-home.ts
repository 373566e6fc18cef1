/**
 * A sheet's files (its private copy under `$DATA_DIR/sheets/`, its attachments beside the
 * original, its report's archive) are on the disk of the installation that queued it. Processes
 * may share a Redis without sharing that disk (another host, a share not mounted, another
 * DATA_DIR), so a worker works a sheet's jobs only when the sheet's installation is its own;
 * another's job goes back to its queue, no attempt spent, for a worker of that data folder. A
 * file missing on the sheet's own installation is a real loss, and is handled as one elsewhere.
 */
import type { Logger } from 'pino';

import type { Installation } from './installation.js';
import type { SheetStore } from './sheet-store.js';
import { ELSEWHERE_WAIT_MS, FIRST_ELSEWHERE_WAIT_MS } from '../policy.js';
import { NotYet } from '../errors.js';

/**
 * How long a job handed back for the `started`-th time waits: doubling from 100 ms to 5 s, with
 * jitter. Every idle worker of the connection may take a job that becomes ready, a wrong one as
 * likely as a right one: a fixed 5 s made each wrong turn cost 5 s (a sheet's report a minute
 * late under load), while a short wait alone would have a lone wrong worker spin on it.
 */
export function elsewhereWaitMs(started: number, random: () => number = Math.random): number {
  const doublings = Math.min(Math.max(started - 1, 0), 6);
  const ceiling = Math.min(ELSEWHERE_WAIT_MS, FIRST_ELSEWHERE_WAIT_MS * 2 ** doublings);
  return Math.round(ceiling * (0.5 + random() / 2));
}

/** What the check needs (a context has it). */
export interface HomeParts {
  store: SheetStore;
  installation: Pick<Installation, 'id'>;
  logger: Logger;
}

/**
 * Whether the sheet is this installation's: queued from its data folder, or by an older version
 * that did not say (then as before), or not recorded at all (the caller decides what that means).
 * Another installation's sheet is settled, closed and reported by that installation alone.
 */
export async function isOwnSheet(
  parts: Pick<HomeParts, 'store' | 'installation'>,
  sheetId: string,
): Promise<boolean> {
  const home = (await parts.store.placeOf(sheetId))?.installation;
  return home === undefined || home === parts.installation.id;
}

/**
 * Undefined when this process's installation holds the sheet's files (or the sheet has no record,
 * or one of an older version that did not say: then as before); else why its job must wait. The
 * first time for a sheet, this process says which data folder it waits for: once, not per job.
 */
export async function awayFromHome(
  parts: HomeParts,
  sheetId: string,
  /** How many times the job asking was taken by a worker (BullMQ's attemptsStarted). */
  started: number,
): Promise<NotYet | undefined> {
  const place = await parts.store.placeOf(sheetId);
  const home = place?.installation;
  if (home === undefined || home === parts.installation.id) return undefined;
  const folder = place?.dataDir === undefined ? '' : `${place.dataDir} `;
  const message = `sheet ${sheetId} waits for a worker of data folder ${folder}(installation ${home}): its files are on that disk, not on this process's (installation ${parts.installation.id}). Its jobs are left to such a worker; start one there (\`order-importer worker\` with that DATA_DIR) if none runs.`;
  if (parts.store.firstTimeAway(sheetId))
    parts.logger.warn({ sheetId, installation: home, dataDir: place?.dataDir }, message);
  return new NotYet('sheet.elsewhere', message, { retryInMs: elsewhereWaitMs(started) });
}
