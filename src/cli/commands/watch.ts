import { join } from 'node:path';

import { announceHosts, refuseExposure } from '../../app/dashboard-exposure.js';
import { serviceStart, sheetStores } from '../../app/importer.js';
import { type RunningWatch, startWatch } from '../../app/watch.js';
import type { MappingSources } from '../../orders/mapping-files.js';
import type { SettingFlags, Settings } from '../../settings/load.js';
import { type SheetProgress, sheetProgress } from '../../store/progress.js';
import type { CommandIo } from '../io.js';
import {
  commandLogger,
  commandWords,
  commandSettings,
  mappingSources,
  shortPath,
} from '../setup.js';
import { DoneAnnouncer } from './done-lines.js';
import {
  type LeftOver,
  leftOver,
  leftOverLine,
  sumLeftOver,
  WatchProgress,
} from './watch-progress.js';

export interface WatchCommandOptions {
  config?: string;
  settings?: SettingFlags;
  /** false: no dashboard. */
  dashboard?: boolean;
  /** `--mapping FILE`: the mapping of every sheet, over any `mapping.json` beside one. */
  mapping?: string;
}

/**
 * The hot folder: the watcher, the workers and the dashboard, until SIGINT/SIGTERM. The first
 * signal stops taking sheets and lets the rows in flight finish; a second one stops at once.
 * The next start resumes where this one stopped.
 */
export async function watchCommand(opts: WatchCommandOptions, io: CommandIo): Promise<number> {
  const settings = await commandSettings(io, opts.config, opts.settings);
  const mappings = await mappingSources(opts.mapping, settings, io.cwd);
  const words = commandWords(settings);
  // On a terminal its lines go above the sheets' progress lines.
  const progress = new WatchProgress(io.stderr, { words });
  const announce = (line: string) => {
    progress.say(line);
  };
  // Refused before anything starts: no worker may take a sheet for a watch that will not run.
  if (opts.dashboard !== false) refuseExposure(settings);
  const logger = commandLogger(io, settings);
  const start = serviceStart(io);
  const show = (path: string) => shortPath(path, io.cwd);
  let watch: RunningWatch;
  try {
    watch = await startWatch({
      settings,
      mappings,
      logger,
      announce,
      show,
      dashboard: opts.dashboard !== false,
      start,
      follower: (importers, page) =>
        new DoneAnnouncer({
          progress: (sheetId) => progressIn(sheetStores(importers), sheetId),
          print: announce,
          show,
          logger,
          lines: progress,
          page,
          words,
        }),
    });
  } catch (error) {
    progress.close();
    throw error;
  }
  announceWatching(settings, mappings, watch, { show, words }, announce);
  const signal = await start.firstSignal;
  announce(words.t('cli.watch.stopping', { signal }));
  stopAtOnceOnSecondSignal(io, watch.importers, () => {
    announce(words.t('cli.watch.stop-now'));
  });
  await watch.stopTaking();
  progress.close();
  const left: LeftOver[] = [];
  await watch.close({
    grace: 'service',
    afterWorkers: async (one) => {
      left.push(await leftOver(one.ctx.store, one.connection.id));
    },
  });
  // A connection whose Redis did not answer counted nothing: then the sum is not known.
  announce(
    leftOverLine(left.length === watch.importers.all.length ? sumLeftOver(left) : undefined, words),
  );
  announce(words.t('cli.stopped'));
  return 0;
}

function announceWatching(
  settings: Settings,
  mappings: MappingSources,
  watch: RunningWatch,
  shown: { show: (path: string) => string; words: ReturnType<typeof commandWords> },
  announce: (line: string) => void,
): void {
  const { show, words } = shown;
  const { dashboard } = watch;
  // Several offices: each connection was named as it opened.
  if (settings.connections.length === 0) {
    const { apiBaseUrl, name, sandbox } = watch.importer.connection;
    announce(
      sandbox
        ? words.t('cli.watch.sandbox', { url: apiBaseUrl })
        : words.t('cli.watch.api', { url: apiBaseUrl, name }),
    );
  }
  const polling = settings.inboxPolling ? 'yes' : 'no';
  const offices = settings.connections.map((c) =>
    words.t('cli.watch.office-inbox', {
      folder: show(join(settings.inboxDir, c.inbox)),
      name: c.name,
    }),
  );
  const inbox = settings.inboxDir;
  announce(
    offices.length === 0
      ? words.t('cli.watch.watching', { inbox, polling })
      : words.t('cli.watch.watching-offices', { inbox, polling, offices: offices.join(', ') }),
  );
  if (mappings.flag !== undefined)
    announce(words.t('cli.watch.mapping-every', { file: show(mappings.flag) }));
  else if (mappings.config !== undefined)
    announce(
      words.t('cli.watch.mapping-config', {
        connections: settings.connections.some((c) => c.mapping !== undefined) ? 'yes' : 'no',
        file: show(mappings.config),
      }),
    );
  announce(words.t('cli.watch.reports', { dir: settings.reportsDir }));
  if (dashboard) {
    announce(words.t('cli.dashboard.url', { url: dashboard.url }));
    announceHosts(settings, dashboard, announce);
  }
  announce(words.t('cli.stop-hint'));
}

function stopAtOnceOnSecondSignal(
  io: CommandIo,
  importer: Pick<RunningWatch['importers'], 'close'>,
  sayStoppingNow: () => void,
): void {
  void io.stopSignal().then(async () => {
    sayStoppingNow();
    await importer.close({ force: true });
  });
}

/** A sheet's progress, from the key space that holds it. */
async function progressIn(
  stores: ReturnType<typeof sheetStores>,
  sheetId: string,
): Promise<SheetProgress | undefined> {
  for (const store of stores) {
    const progress = await sheetProgress(store, sheetId);
    if (progress !== undefined) return progress;
  }
  return undefined;
}
