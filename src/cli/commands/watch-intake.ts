/**
 * What `watch` takes sheets with: the intake, with the intakes an earlier stop interrupted
 * finished, and a line said for each sheet taken and each one done.
 */
import type { Logger } from 'pino';

import { Intake, type IntakeResult } from '../../intake/intake.js';
import type { MappingSources } from '../../orders/mapping-files.js';
import type { Settings } from '../../settings/load.js';
import { recentProgress, sheetProgress } from '../../store/progress.js';
import type { Importer } from '../importer.js';
import { DoneAnnouncer, type DoneAnnouncerOptions } from './done-lines.js';

const RECOVERY_EVERY_MS = 60_000;

/** What every part of `watch` is given. */
export interface WatchParts {
  settings: Settings;
  /** The mapping files of its sheets besides a `mapping.json` beside one (`--mapping`, config). */
  mappings: MappingSources;
  importer: Importer;
  logger: Logger;
  announce: (line: string) => void;
  /** How a path is shown (relative to where the user is). */
  show: (path: string) => string;
  /** Keeps what stops a part, for the end. */
  onStop: (stop: () => Promise<unknown>) => void;
  /** The progress lines of the sheets in work (all of this watch's, by sheet id). */
  lines: NonNullable<DoneAnnouncerOptions['lines']>;
  /** A sheet's page on the dashboard this watch serves (none without one, or before it listens). */
  sheetPage: (sheetId: string) => string | undefined;
}

export interface RunningIntake {
  intake: Intake;
  /** Says what became of a sheet taken (and when it is done). */
  tell: (path: string, result: IntakeResult) => void;
}

/**
 * The intake, and the intakes an earlier stop interrupted finished; sheets an earlier run left
 * under way are followed until done.
 */
export async function startIntake(parts: WatchParts): Promise<RunningIntake> {
  const { settings, importer, logger, announce, show } = parts;
  const intake = new Intake({
    ctx: importer.ctx,
    workDir: settings.workDir,
    failedDir: settings.failedDir,
    stableMs: settings.inboxStableMs,
    mappings: parts.mappings,
    logger,
  });
  const done = new DoneAnnouncer({
    progress: (sheetId) => sheetProgress(importer.ctx.store, sheetId),
    print: announce,
    show,
    logger,
    lines: parts.lines,
    page: parts.sheetPage,
  });
  parts.onStop(() => done.close());
  const tell = (path: string, result: IntakeResult) => {
    if (result.kind === 'queued') {
      announce(`Took ${show(path)} as sheet ${result.sheetId}.`);
      done.follow(result.sheetId);
    }
    if (result.kind === 'refused') announce(result.why);
    if (result.kind === 'unreadable')
      announce(`${show(path)} cannot be read: moved to ${show(result.folder)}.`);
  };
  const recovered = await intake.recover();
  if (recovered.finished.length > 0)
    announce(`Finished ${recovered.finished.length} intake(s) an earlier stop interrupted.`);
  for (const sheetId of recovered.finished) done.follow(sheetId);
  // Sheets an earlier run left under way are finished here too: say when (those of another
  // connection sharing the Redis are not this watch's to finish).
  for (const sheet of await recentProgress(importer.ctx.store))
    if (sheet.state !== 'done' && sheet.connectionId === importer.connection.id)
      done.follow(sheet.sheetId);
  recoverEveryMinute(intake, done, parts);
  for (const work of recovered.stranded) {
    announce(
      `${show(work)} was queued, but Redis has no record of it (did Redis lose its data?): it is left alone. Check which of its rows have orders, then drop its sheet into the inbox again.`,
    );
  }
  return { intake, tell };
}

/**
 * An intake that failed half-way (a file locked, a share gone a moment) is finished by a later
 * pass instead of waiting for the next start.
 */
function recoverEveryMinute(intake: Intake, done: DoneAnnouncer, parts: WatchParts): void {
  const passes = setInterval(() => {
    intake
      .recover({ minAgeMs: RECOVERY_EVERY_MS })
      .then(({ finished }) => {
        for (const sheetId of finished) done.follow(sheetId);
      })
      .catch((error: unknown) => {
        parts.logger.warn({ err: error }, 'recovery pass failed; the next one tries again');
      });
  }, RECOVERY_EVERY_MS);
  passes.unref();
  parts.onStop(() => {
    clearInterval(passes);
    return Promise.resolve();
  });
}
