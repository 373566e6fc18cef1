import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';

import type { RunningDashboard } from '../../dashboard/server.js';
import type { SettingFlags } from '../../settings/load.js';
import { serviceStart } from '../importer.js';
import { type Importers, openEach } from '../importers.js';
import type { CommandIo } from '../io.js';
import { commandLogger, commandSettings, mappingSources, shortPath } from '../setup.js';
import { announceHosts, refuseExposure } from './dashboard-serving.js';
import { startIntake, type WatchParts } from './watch-intake.js';
import {
  serveWatchDashboard,
  startScheduledScans,
  startStatusSync,
  watchInbox,
} from './watch-parts.js';
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
  for (const dir of [
    settings.inboxDir,
    settings.workDir,
    settings.archiveDir,
    settings.failedDir,
    settings.reportsDir,
  ]) {
    await mkdir(dir, { recursive: true });
  }
  const importers = await openEach(settings, settings.connections, announce, (one) =>
    start.opened({ settings, logger, announce, ...one }),
  );
  const [importer = never()] = importers.all;
  const stops: Array<() => Promise<unknown>> = [];
  const stopParts = async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
  };
  let dashboard: RunningDashboard | undefined;
  const parts: WatchParts = {
    settings,
    mappings,
    importer,
    importers: importers.all,
    logger,
    announce,
    show: (path) => shortPath(path, io.cwd),
    onStop: (stop) => stops.push(stop),
    lines: progress,
    // The address the dashboard listens on, once it does.
    sheetPage: (sheetId) =>
      dashboard === undefined
        ? undefined
        : `${dashboard.url}/sheets/${encodeURIComponent(sheetId)}`,
  };
  try {
    const intake = await startIntake(parts);
    await startScheduledScans(parts, intake);
    await startStatusSync(parts);
    dashboard = opts.dashboard === false ? undefined : await serveWatchDashboard(parts);
    await watchInbox(parts, intake);
    announceWatching(parts, dashboard);
    const signal = await start.firstSignal;
    announce(
      `${signal}: no more sheets are taken; rows in flight finish (Ctrl+C again to stop at once)…`,
    );
    stopAtOnceOnSecondSignal(io, importers, announce);
    await stopParts();
    progress.close();
    const left: LeftOver[] = [];
    await importers.close({
      graceMs: 60_000,
      afterWorkers: async (one) => {
        left.push(await leftOver(one.ctx.store, one.connection.id));
      },
    });
    // A connection whose Redis did not answer counted nothing: then the sum is not known.
    announce(leftOverLine(left.length === importers.all.length ? sumLeftOver(left) : undefined));
    announce('Stopped.');
    return 0;
  } catch (error) {
    await stopParts();
    progress.close();
    await importers.close({ graceMs: 5_000 });
    throw error;
  }
}

/** openEach opens one importer at least. */
function never(): never {
  throw new Error('no importer was opened');
}

function announceWatching(parts: WatchParts, dashboard: RunningDashboard | undefined): void {
  const { settings, announce } = parts;
  // Several offices: each connection was named as it opened.
  if (settings.connections.length === 0) {
    const { apiBaseUrl, name, sandbox } = parts.importer.connection;
    announce(
      sandbox
        ? `Orders go to the embedded sandbox at ${apiBaseUrl}, not to the inspection company.`
        : `Orders go to the API at ${apiBaseUrl} (connection "${name}").`,
    );
  }
  const polling = settings.inboxPolling ? ' (polling it every second)' : '';
  const offices = settings.connections.map(
    (c) => `${parts.show(join(settings.inboxDir, c.inbox))}/ for "${c.name}"`,
  );
  const where =
    offices.length === 0
      ? 'there'
      : `into its office's subfolder (${offices.join(', ')}); a sheet anywhere else is not taken`;
  announce(`Watching ${settings.inboxDir}${polling}: drop a sheet (with its documents) ${where}.`);
  const { mappings, show } = parts;
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
  importer: Pick<Importers, 'close'>,
  announce: (line: string) => void,
): void {
  void io.stopSignal().then(async () => {
    announce(
      'Stopping now; rows in flight resume from their last recorded step at the next start.',
    );
    await importer.close({ force: true });
  });
}
