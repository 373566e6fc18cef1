import { mkdir, realpath } from 'node:fs/promises';

import type { RunningDashboard } from '../dashboard/server.js';
import { statIfThere } from '../intake/files.js';
import { Intake, type IntakeResult } from '../intake/intake.js';
import { ScheduleError } from '../intake/schedules.js';
import { startWatcher } from '../intake/watcher.js';
import { pingRedis } from '../redis/connect.js';
import { recentProgress, sheetProgress } from '../store/progress.js';
import { startSchedules } from '../workers/schedules.js';
import { refuseExposure, sayHosts, serveDashboard } from './dashboard.js';
import { CliError } from './errors.js';
import {
  commandLogger,
  loadCommandSettings,
  type SettingCommandOptions,
  settingFlags,
  shortPath,
} from './import.js';
import { serviceStart } from './importer.js';
import type { CommandIo } from './io.js';
import { SheetNews } from './sheet-news.js';
import { terminalText } from './terminal-text.js';

const RECOVERY_EVERY_MS = 60_000;

export interface WatchCommandOptions extends SettingCommandOptions {
  dashboard?: boolean;
  poll?: boolean;
}

/**
 * The hot folder: the watcher, the workers and the dashboard, until SIGINT/SIGTERM. The first
 * signal stops taking sheets and lets the rows in flight finish; a second one stops at once.
 * The next start resumes where this one stopped.
 */
export async function watchCommand(opts: WatchCommandOptions, io: CommandIo): Promise<number> {
  const settings = await loadCommandSettings(io, opts.config, settingFlags(opts));
  // Its lines quote file names and messages that may hold a sheet's control characters.
  const say = (line: string) => io.stderr.write(`${terminalText(line)}\n`);
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
  const importer = await start.opened({ settings, logger, say });
  const stops: Array<() => Promise<unknown>> = [];
  const stopAll = async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
  };
  try {
    const intake = new Intake({
      ctx: importer.ctx,
      workDir: settings.workDir,
      failedDir: settings.failedDir,
      stableMs: settings.inboxStableMs,
      logger,
    });
    const news = new SheetNews({
      progress: (sheetId) => sheetProgress(importer.ctx.store, sheetId),
      say,
      show: (path) => shortPath(path, io.cwd),
      logger,
    });
    stops.push(() => news.close());
    const announce = (path: string, result: IntakeResult) => {
      if (result.kind === 'queued') {
        say(`Took ${shortPath(path, io.cwd)} as sheet ${result.sheetId}.`);
        news.follow(result.sheetId);
      }
      if (result.kind === 'refused') say(result.why);
      if (result.kind === 'unreadable')
        say(
          `${shortPath(path, io.cwd)} cannot be read: moved to ${shortPath(result.folder, io.cwd)}.`,
        );
    };
    const recovered = await intake.recover();
    if (recovered.finished.length > 0)
      say(`Finished ${recovered.finished.length} intake(s) an earlier stop interrupted.`);
    for (const sheetId of recovered.finished) news.follow(sheetId);
    // Sheets an earlier run left under way are finished here too: say when (those of another
    // connection sharing the Redis are not this watch's to finish).
    for (const sheet of await recentProgress(importer.ctx.store))
      if (sheet.state !== 'done' && sheet.connectionId === importer.connection.id)
        news.follow(sheet.sheetId);
    // An intake that failed half-way (a file locked, a share gone a moment) is finished by a
    // later pass instead of waiting for the next start.
    const passes = setInterval(() => {
      intake
        .recover({ minAgeMs: RECOVERY_EVERY_MS })
        .then(({ finished }) => {
          for (const sheetId of finished) news.follow(sheetId);
        })
        .catch((error: unknown) => {
          logger.warn({ err: error }, 'recovery pass failed; the next one tries again');
        });
    }, RECOVERY_EVERY_MS);
    passes.unref();
    stops.push(() => {
      clearInterval(passes);
      return Promise.resolve();
    });
    for (const work of recovered.stranded) {
      say(
        `${shortPath(work, io.cwd)} was queued, but Redis has no record of it (did Redis lose its data?): it is left alone. Check which of its rows have orders, then drop its sheet into the inbox again.`,
      );
    }

    const schedules = await startSchedules(
      importer.ctx,
      settings.schedules,
      intake,
      announce,
    ).catch((error: unknown) => {
      if (error instanceof ScheduleError) throw new CliError(error.message, 1, { cause: error });
      throw error;
    });
    stops.push(() => schedules.close());
    for (const s of settings.schedules) {
      const missing = (await statIfThere(s.dir))?.isDirectory()
        ? ''
        : ', which is not there (yet): scans fail until it is';
      say(`Schedule "${s.name}" (${s.cron}) scans ${shortPath(s.dir, io.cwd)}${missing}.`);
    }

    let dashboard: RunningDashboard | undefined;
    if (opts.dashboard !== false) {
      dashboard = await serveDashboard(
        settings,
        {
          overview: () => recentProgress(importer.ctx.store),
          notTaken: () => importer.ctx.notTaken.recent(),
          health: async () => ({
            redis: await pingRedis(importer.ctx.redis, logger),
            api: await importer.apiAnswers(),
          }),
          queues: Object.values(importer.ctx.queues),
          logger,
        },
        'set DASHBOARD_PORT, or --no-dashboard',
      );
      const running = dashboard;
      stops.push(() => running.close());
    }

    const polling = opts.poll ?? settings.inboxPolling;
    const watcher = startWatcher({
      // The inbox may itself be a link to where the user keeps it (a share): links are refused
      // inside it, not above it.
      inboxDir: await realpath(settings.inboxDir),
      intake,
      stableMs: settings.inboxStableMs,
      polling,
      logger,
      onResult: announce,
      onRefused: (_path, why) => {
        say(why);
      },
    });
    stops.push(() => watcher.close());
    await watcher.ready;
    say(
      `Watching ${settings.inboxDir}${polling ? ' (polling it every second)' : ''}: drop a sheet (with its documents) there.`,
    );
    say(`Reports go to ${settings.reportsDir}.`);
    if (dashboard) say(`Dashboard: ${dashboard.url}/  (queues: ${dashboard.url}/queues)`);
    if (dashboard) sayHosts(settings, dashboard, say);
    say('Stop with Ctrl+C.');

    const signal = await start.firstSignal;
    say(`${signal}: no more sheets are taken; rows in flight finish (again to stop at once)…`);
    void io.stopSignal().then(async () => {
      say('Stopping now; rows in flight resume from their last recorded step at the next start.');
      await importer.close({ force: true });
    });
    await stopAll();
    await importer.close({ graceMs: 60_000 });
    say('Stopped.');
    return 0;
  } catch (error) {
    await stopAll();
    await importer.close({ graceMs: 5_000 });
    throw error;
  }
}
