import { mkdir } from 'node:fs/promises';

import type { RunningDashboard } from '../../dashboard/server.js';
import type { SettingFlags } from '../../settings/load.js';
import { type Importer, serviceStart } from '../importer.js';
import type { CommandIo } from '../io.js';
import { commandLogger, commandSettings, mappingSources, shortPath } from '../setup.js';
import { terminalText } from '../terminal-text.js';
import { announceHosts, refuseExposure } from './dashboard-serving.js';
import { startIntake, type WatchParts } from './watch-intake.js';
import { serveWatchDashboard, startScheduledScans, watchInbox } from './watch-parts.js';
import { type LeftOver, leftOver, leftOverLine, WatchProgress } from './watch-progress.js';

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
  // On a terminal its lines go above the sheets' progress lines; they quote file names and
  // messages that may hold a sheet's control characters.
  const progress = new WatchProgress(io.stderr);
  const announce = (line: string) => {
    progress.say(terminalText(line));
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
  const importer = await start.opened({ settings, logger, announce: announce });
  const stops: Array<() => Promise<unknown>> = [];
  const stopParts = async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
  };
  let dashboard: RunningDashboard | undefined;
  const parts: WatchParts = {
    settings,
    mappings,
    importer,
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
    dashboard = opts.dashboard === false ? undefined : await serveWatchDashboard(parts);
    await watchInbox(parts, intake);
    announceWatching(parts, dashboard);
    const signal = await start.firstSignal;
    announce(`${signal}: no more sheets are taken; rows in flight finish (again to stop at once)…`);
    stopAtOnceOnSecondSignal(io, importer, announce);
    await stopParts();
    progress.close();
    let left: LeftOver | undefined;
    await importer.close({
      graceMs: 60_000,
      afterWorkers: async () => {
        left = await leftOver(importer.ctx.store, importer.connection.id);
      },
    });
    announce(leftOverLine(left));
    announce('Stopped.');
    return 0;
  } catch (error) {
    await stopParts();
    progress.close();
    await importer.close({ graceMs: 5_000 });
    throw error;
  }
}

function announceWatching(parts: WatchParts, dashboard: RunningDashboard | undefined): void {
  const { settings, importer, mappings, announce, show } = parts;
  const { apiBaseUrl, name, sandbox } = importer.connection;
  announce(
    sandbox
      ? `Orders go to the embedded sandbox at ${apiBaseUrl}, not to the inspection company.`
      : `Orders go to the API at ${apiBaseUrl} (connection "${name}").`,
  );
  const polling = settings.inboxPolling ? ' (polling it every second)' : '';
  announce(`Watching ${settings.inboxDir}${polling}: drop a sheet (with its documents) there.`);
  if (mappings.flag !== undefined)
    announce(`Every sheet is read with the mapping ${show(mappings.flag)}.`);
  else if (mappings.config !== undefined)
    announce(
      `Sheets without a mapping.json beside them are read with the mapping ${show(mappings.config)}.`,
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
  importer: Importer,
  announce: (line: string) => void,
): void {
  void io.stopSignal().then(async () => {
    announce(
      'Stopping now; rows in flight resume from their last recorded step at the next start.',
    );
    await importer.close({ force: true });
  });
}
