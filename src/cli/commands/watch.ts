import { join } from 'node:path';

import { announceHosts, refuseExposure } from '../../app/dashboard-serving.js';
import { serviceStart } from '../../app/importer.js';
import { type RunningWatch, startWatch } from '../../app/watch.js';
import type { MappingSources } from '../../orders/mapping-files.js';
import type { SettingFlags, Settings } from '../../settings/load.js';
import { sheetProgress } from '../../store/progress.js';
import type { CommandIo } from '../io.js';
import { commandLogger, commandSettings, mappingSources, shortPath } from '../setup.js';
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
  // On a terminal its lines go above the sheets' progress lines.
  const progress = new WatchProgress(io.stderr);
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
      follower: (importer, page) =>
        new DoneAnnouncer({
          progress: (sheetId) => sheetProgress(importer.ctx.store, sheetId),
          print: announce,
          show,
          logger,
          lines: progress,
          page,
        }),
    });
  } catch (error) {
    progress.close();
    throw error;
  }
  announceWatching(settings, mappings, watch, show, announce);
  const signal = await start.firstSignal;
  announce(
    `${signal}: no more sheets are taken; rows in flight finish (Ctrl+C again to stop at once)…`,
  );
  stopAtOnceOnSecondSignal(io, watch.importers, announce);
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
    leftOverLine(left.length === watch.importers.all.length ? sumLeftOver(left) : undefined),
  );
  announce('Stopped.');
  return 0;
}

function announceWatching(
  settings: Settings,
  mappings: MappingSources,
  watch: RunningWatch,
  show: (path: string) => string,
  announce: (line: string) => void,
): void {
  const { dashboard } = watch;
  // Several offices: each connection was named as it opened.
  if (settings.connections.length === 0) {
    const { apiBaseUrl, name, sandbox } = watch.importer.connection;
    announce(
      sandbox
        ? `Orders go to the embedded sandbox at ${apiBaseUrl}, not to the inspection company.`
        : `Orders go to the API at ${apiBaseUrl} (connection "${name}").`,
    );
  }
  const polling = settings.inboxPolling ? ' (polling it every second)' : '';
  const offices = settings.connections.map(
    (c) => `${show(join(settings.inboxDir, c.inbox))}/ for "${c.name}"`,
  );
  const where =
    offices.length === 0
      ? 'there'
      : `into its office's subfolder (${offices.join(', ')}); a sheet anywhere else is not taken`;
  announce(`Watching ${settings.inboxDir}${polling}: drop a sheet (with its documents) ${where}.`);
  if (mappings.flag !== undefined)
    announce(`Every sheet is read with the mapping ${show(mappings.flag)}.`);
  else if (mappings.config !== undefined)
    announce(
      `Sheets without a mapping.json beside them${settings.connections.some((c) => c.mapping !== undefined) ? " or their connection's" : ''} are read with the mapping ${show(mappings.config)}.`,
    );
  announce(`Reports go to ${settings.reportsDir}.`);
  if (dashboard) {
    announce(`Dashboard: ${dashboard.url}/  (queues: ${dashboard.url}/queues)`);
    announceHosts(settings, dashboard, announce);
  }
  announce('Stop with Ctrl+C.');
}

function stopAtOnceOnSecondSignal(
  io: CommandIo,
  importer: Pick<RunningWatch['importers'], 'close'>,
  announce: (line: string) => void,
): void {
  void io.stopSignal().then(async () => {
    announce(
      'Stopping now; rows in flight resume from their last recorded step at the next start.',
    );
    await importer.close({ force: true });
  });
}
