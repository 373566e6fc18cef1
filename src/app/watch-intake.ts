/**
 * What `watch` takes sheets with: each connection's intake (routed by the inbox subfolder a sheet
 * lies in), with the intakes an earlier stop interrupted finished at start and by a pass every
 * minute, and a line said for each sheet taken; each one is handed to the watch's follower.
 */
import { lstat, mkdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';

import type { Logger } from 'pino';

import { Intake, type IntakeResult, refusalText } from '../intake/intake.js';
import { wordsFor } from '../language/words.js';
import { type InboxRoute, RoutedIntake } from '../intake/routes.js';
import { checkMappingSources, type MappingSources } from '../orders/mapping-files.js';
import type { Settings } from '../settings/load.js';
import { recentProgress } from '../store/progress.js';
import { UserError } from '../errors.js';
import { type Importer, sheetStores } from './importer.js';
import { INTAKE_RECOVERY_EVERY_MS } from '../policy.js';

/** What every part of `watch` is given. */
export interface WatchParts {
  settings: Settings;
  /** The first of `importers`: what the parts of one connection use. */
  importer: Importer;
  /** The mapping files of its sheets besides a `mapping.json` beside one (`--mapping`, config). */
  mappings: MappingSources;
  /** One per connection this watch serves (one without `connections` in the config file). */
  importers: Importer[];
  logger: Logger;
  announce: (line: string) => void;
  /** How a path is shown (relative to where the user is). */
  show: (path: string) => string;
  /** Keeps what stops a part, for the end. */
  onStop: (stop: () => Promise<unknown>) => void;
  /** Follows a sheet this watch took (or an earlier run left under way) until it is done. */
  follow: (sheetId: string) => void;
}

export interface RunningIntake {
  /** Each connection's intake, in the order of `importers`. */
  intakes: Intake[];
  /** What the watcher takes with: the one intake, or each sheet to its connection's (routes.ts). */
  watched: Pick<Intake, 'take' | 'refuse'>;
  /** The inbox, its links resolved (it may itself be a link to a share). */
  inboxDir: string;
  /** The connections' subfolders of the inbox, kept when emptied. */
  keep: string[];
  /** Says what became of a sheet taken (and when it is done), or why a file is not taken. */
  tell: (path: string, result: IntakeResult) => void;
}

/**
 * Each connection's intake, and the intakes an earlier stop interrupted finished; sheets an
 * earlier run left under way are followed until done.
 */
export async function startIntake(parts: WatchParts): Promise<RunningIntake> {
  const { settings, importers, logger, announce, show } = parts;
  const intakes: Intake[] = [];
  for (const importer of importers) {
    const mappings = await withConnectionMapping(parts.mappings, importer.configured?.mapping);
    intakes.push(
      new Intake({
        ctx: importer.ctx,
        workDir: settings.workDir,
        failedDir: settings.failedDir,
        stableMs: settings.inboxStableMs,
        logger,
        mappings,
      }),
    );
  }
  const routed = await inboxRoutes(settings, importers, intakes);
  // Which office a sheet of the inbox was taken for, when there are several.
  const office = (path: string) =>
    routed.watched instanceof RoutedIntake ? routed.watched.routeOf(path)?.name : undefined;
  const words = wordsFor(settings.language);
  const tell = (path: string, result: IntakeResult) => {
    if (result.kind === 'queued') {
      const connection = office(path);
      const took = { file: show(path), sheetId: result.sheetId };
      announce(
        connection === undefined
          ? words.t('cli.intake.took', took)
          : words.t('cli.intake.took-for', { ...took, connection }),
      );
      parts.follow(result.sheetId);
    }
    if (result.kind === 'refused') announce(refusalText(words, result));
    if (result.kind === 'unreadable')
      announce(words.t('cli.intake.unreadable', { file: show(path), folder: show(result.folder) }));
  };
  await recoverAtStart(intakes, parts);
  for (const intake of intakes) recoverEveryMinute(intake, parts);
  return { intakes, tell, ...routed };
}

/**
 * The intakes an earlier stop interrupted, finished; sheets an earlier run left under way,
 * followed. Those of another connection sharing the Redis are not this watch's to finish.
 */
async function recoverAtStart(intakes: readonly Intake[], parts: WatchParts): Promise<void> {
  const { announce, show } = parts;
  const words = wordsFor(parts.settings.language);
  const finished: string[] = [];
  const stranded = new Set<string>();
  for (const intake of intakes) {
    const recovered = await intake.recover();
    finished.push(...recovered.finished);
    for (const work of recovered.stranded) stranded.add(work);
  }
  if (finished.length > 0) announce(words.t('cli.intake.recovered', { count: finished.length }));
  for (const sheetId of finished) parts.follow(sheetId);
  const mine = new Set(parts.importers.map((importer) => importer.connection.id));
  for (const store of sheetStores(parts.importers))
    for (const sheet of await recentProgress(store))
      if (
        sheet.state !== 'done' &&
        sheet.connectionId !== undefined &&
        mine.has(sheet.connectionId)
      )
        parts.follow(sheet.sheetId);
  for (const work of stranded) {
    announce(words.t('cli.intake.stranded', { folder: show(work) }));
  }
}

/**
 * What the watcher takes sheets with. With `connections`, each sheet goes to the intake of the
 * subfolder it lies in; its subfolders are made, and must be folders: the watcher follows no link.
 */
async function inboxRoutes(
  settings: Settings,
  importers: readonly Importer[],
  intakes: readonly Intake[],
): Promise<Pick<RunningIntake, 'watched' | 'inboxDir' | 'keep'>> {
  const inboxDir = await realpath(settings.inboxDir);
  const routes: InboxRoute[] = [];
  for (const [i, importer] of importers.entries()) {
    const intake = intakes[i];
    if (importer.configured === undefined || intake === undefined) continue;
    const dir = join(inboxDir, importer.configured.inbox);
    await mkdir(dir, { recursive: true });
    if ((await lstat(dir)).isSymbolicLink())
      throw new UserError(
        'inbox.symbolic-link',
        `The inbox of connection "${importer.configured.name}" (${dir}) is a symbolic link: the hot folder follows no link. Make it a folder, or point INBOX_DIR at the share.`,
        { values: { name: importer.configured.name, dir } },
      );
    routes.push({ name: importer.configured.name, dir, intake });
  }
  const [only] = intakes;
  if (routes.length === 0 && only !== undefined) return { watched: only, inboxDir, keep: [] };
  return {
    watched: new RoutedIntake(routes, inboxDir),
    inboxDir,
    keep: routes.map((route) => route.dir),
  };
}

/**
 * An intake that failed half-way (a file locked, a share gone a moment) is finished by a later
 * pass instead of waiting for the next start.
 */
function recoverEveryMinute(intake: Intake, parts: WatchParts): void {
  const passes = setInterval(() => {
    intake
      .recover({ minAgeMs: INTAKE_RECOVERY_EVERY_MS })
      .then(({ finished }) => {
        for (const sheetId of finished) parts.follow(sheetId);
      })
      .catch((error: unknown) => {
        parts.logger.warn({ err: error }, 'recovery pass failed; the next one tries again');
      });
  }, INTAKE_RECOVERY_EVERY_MS);
  passes.unref();
  parts.onStop(() => {
    clearInterval(passes);
    return Promise.resolve();
  });
}

/**
 * `sources` with a connection's own `mapping` (absolute; from the config file), checked now: a
 * mistake in it stops the start (exit 1).
 */
async function withConnectionMapping(
  sources: MappingSources,
  file: string | undefined,
): Promise<MappingSources> {
  if (file === undefined) return sources;
  await checkMappingSources({ connection: file });
  return { ...sources, connection: file };
}
