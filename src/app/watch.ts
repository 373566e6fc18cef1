/**
 * The hot folder assembled (`watch`): its folders, one importer per connection (with workers), each
 * connection's intake, the scheduled scans, the status refresh, the dashboard and the inbox
 * watcher, in that order; and stopping them in the reverse order. The CLI parses and prints; the
 * tests start this same assembly through the CLI's IO.
 */
import { mkdir } from 'node:fs/promises';

import type { Logger } from 'pino';

import type { RunningDashboard } from '../dashboard/server.js';
import type { MappingSources } from '../orders/mapping-files.js';
import type { Settings } from '../settings/load.js';
import type { Importer, ServiceStart } from './importer.js';
import { type ClosingAll, type Importers, openEach } from './importers.js';
import { startRetentionPass } from './retention-pass.js';
import { startIntake } from './watch-intake.js';
import {
  serveWatchDashboard,
  startScheduledScans,
  startStatusSync,
  watchInbox,
} from './watch-parts.js';

/** What follows the sheets a watch took until each is done (the CLI's lines). */
export interface SheetFollower {
  follow(sheetId: string): void;
  close(): Promise<void>;
}

export interface WatchOptions {
  settings: Settings;
  /** The mapping files of its sheets besides a `mapping.json` beside one (`--mapping`, config). */
  mappings: MappingSources;
  logger: Logger;
  announce: (line: string) => void;
  /** How a path is shown (relative to where the user is). */
  show: (path: string) => string;
  /** false: no dashboard. */
  dashboard: boolean;
  /** The service's start (serviceStart): its first stop signal, its metrics. */
  start: ServiceStart;
  /**
   * Made once the importers are open, from them (their sheets in each key space, `sheetStores`)
   * and the page of a sheet on the dashboard, once that listens.
   */
  follower: (
    importers: readonly Importer[],
    sheetPage: (sheetId: string) => string | undefined,
  ) => SheetFollower;
}

export interface RunningWatch {
  importers: Importers;
  /** The first of `importers`. */
  importer: Importer;
  dashboard: RunningDashboard | undefined;
  /** Stops taking sheets (watcher, schedules, dashboard, intake passes); the workers go on. */
  stopTaking(): Promise<void>;
  /** stopTaking, then every importer closed (a second call with `force`: at once). */
  close(how: ClosingAll): Promise<void>;
}

/** The folders of the hot folder, made when missing. */
async function makeFolders(settings: Settings): Promise<void> {
  const { inboxDir, workDir, archiveDir, failedDir, reportsDir } = settings;
  for (const dir of [inboxDir, workDir, archiveDir, failedDir, reportsDir])
    await mkdir(dir, { recursive: true });
}

/** The hot folder, started; anything that fails on the way closes what was started. */
export async function startWatch(options: WatchOptions): Promise<RunningWatch> {
  const { settings, logger, announce } = options;
  await makeFolders(settings);
  const importers = await openEach(settings, settings.connections, { announce, logger }, (one) =>
    options.start.opened({ settings, logger, announce, ...one }),
  );
  const [importer = never()] = importers.all;
  const stops: Array<() => Promise<unknown>> = [];
  let stopping: Promise<void> | undefined;
  const stopTaking = () =>
    (stopping ??= (async () => {
      for (const stop of stops.splice(0).reverse()) await stop();
    })());
  let dashboard: RunningDashboard | undefined;
  const follower = options.follower(importers.all, (sheetId) =>
    dashboard === undefined ? undefined : `${dashboard.url}/sheets/${encodeURIComponent(sheetId)}`,
  );
  stops.push(() => follower.close());
  const parts = {
    ...options,
    importer,
    importers: importers.all,
    onStop: (stop: () => Promise<unknown>) => stops.push(stop),
    follow: (sheetId: string) => {
      follower.follow(sheetId);
    },
  };
  try {
    const intake = await startIntake(parts);
    await startScheduledScans(parts, intake);
    await startStatusSync(parts);
    startRetentionPass(parts);
    dashboard = options.dashboard ? await serveWatchDashboard(parts) : undefined;
    await watchInbox(parts, intake);
  } catch (error) {
    await stopTaking();
    await importers.close({ grace: 'brief' });
    throw error;
  }
  return {
    importers,
    importer,
    dashboard,
    stopTaking,
    close: async (how) => {
      await stopTaking();
      await importers.close(how);
    },
  };
}

/** openEach opens one importer at least. */
function never(): never {
  throw new Error('no importer was opened');
}
