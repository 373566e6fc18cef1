/**
 * The parts `watch` runs beside its workers and intake: the schedules, the dashboard and the
 * inbox watcher. Each one started leaves what stops it with `onStop`.
 */
import { join } from 'node:path';

import type { RunningDashboard } from '../dashboard/server.js';
import { statIfThere } from '../intake/files.js';
import { ScheduledFolders } from '../intake/schedules.js';
import { wordsFor } from '../language/words.js';
import { startWatcher } from '../intake/watcher.js';
import { ProcessHealth } from '../workers/health.js';
import { startSchedules, syncStatusSchedule } from '../workers/schedules.js';
import { serveDashboard, viewOfContexts } from './dashboard-serving.js';
import type { RunningIntake, WatchParts } from './watch-intake.js';

/**
 * The scheduled scans of the config file, each said with its folder; each connection's on its own
 * queue, its sheets taken by its own intake.
 */
export async function startScheduledScans(
  parts: WatchParts,
  running: RunningIntake,
): Promise<void> {
  const { settings } = parts;
  for (const [i, importer] of parts.importers.entries()) {
    const intake = running.intakes[i];
    if (intake === undefined) continue;
    const name = importer.configured?.name;
    // Without `connection`, a schedule is the only connection's (settings refuse it otherwise).
    const mine = settings.schedules.filter((s) => (s.connection ?? name) === name);
    const folders = new ScheduledFolders(mine, name, otherInboxes(parts, running, name));
    const schedules = await startSchedules(
      importer.ctx,
      folders,
      intake,
      running.tell,
      importer.doorbell,
    );
    parts.onStop(() => schedules.close());
    for (const s of mine) {
      const there = (await statIfThere(s.dir))?.isDirectory() === true;
      parts.announce(
        wordsFor(settings.language).t('cli.schedule', {
          name: s.name,
          cron: s.cron,
          dir: parts.show(s.dir),
          connection: name ?? 'none',
          missing: there ? 'no' : 'yes',
        }),
      );
    }
  }
}

/** The inbox subfolders of the offices other than `name`'s. */
function otherInboxes(parts: WatchParts, running: RunningIntake, name: string | undefined) {
  return parts.importers.flatMap(({ configured }) =>
    configured === undefined || configured.name === name
      ? []
      : [{ name: configured.name, dir: join(running.inboxDir, configured.inbox) }],
  );
}

/**
 * The refresh of the orders' statuses (STATUS_SYNC_CRON) on each connection's status queue, or
 * none (`off`): each connection reads back only the sheets imported through it.
 */
export async function startStatusSync(parts: WatchParts): Promise<void> {
  const { statusSyncCron: cron, statusDays } = parts.settings;
  for (const importer of parts.importers) await syncStatusSchedule(importer.ctx, cron);
  const words = wordsFor(parts.settings.language);
  parts.announce(
    cron === 'off'
      ? words.t('cli.status-sync.off')
      : words.t('cli.status-sync.on', { days: statusDays, cron }),
  );
}

/** The dashboard of this watch's offices' imports. */
export async function serveWatchDashboard(parts: WatchParts): Promise<RunningDashboard> {
  const { ctx } = parts.importer;
  // Every office's API: one that refuses its token, or is away too long, is work this watch
  // cannot do. The importers count into one registry: the first one's is everyone's.
  const health = new ProcessHealth({
    apiWaitMs: parts.settings.apiWaitS * 1000,
    logger: parts.logger,
  });
  health.started(parts.importers.map((importer) => importer.ctx));
  // Its own offices only: another installation may share the Redis and the prefix.
  const offices = parts.importers.map(({ connection: { id, name } }) => ({ id, name }));
  // Each office's keys in its key space: one for all on a server, its own on a Cluster.
  const view = viewOfContexts(parts.importers.map((importer) => importer.ctx));
  const dashboard = await serveDashboard(
    parts.settings,
    {
      offices,
      overview: () => view.overview(),
      notTaken: () => view.notTaken(),
      sheet: (sheetId) => view.sheet(sheetId),
      results: view.results,
      health: () => health.health(),
      readiness: () => health.readiness(),
      metrics: ctx.metrics,
      queues: parts.importers.flatMap((importer) => Object.values(importer.ctx.queues)),
      logger: parts.logger,
      agenda: () => view.agenda(),
    },
    'no-dashboard',
  );
  parts.onStop(() => dashboard.close());
  return dashboard;
}

/** The inbox watched, once it is. */
export async function watchInbox(parts: WatchParts, running: RunningIntake): Promise<void> {
  const { settings } = parts;
  const watcher = startWatcher({
    // The inbox may itself be a link to where the user keeps it (a share): links are refused
    // inside it, not above it.
    inboxDir: running.inboxDir,
    intake: running.watched,
    keep: running.keep,
    stableMs: settings.inboxStableMs,
    polling: settings.inboxPolling,
    logger: parts.logger,
    onResult: running.tell,
    // Said as the intake's refusals are: in the process's words, not the log's English.
    onRefused: (path, why, said) => {
      running.tell(path, { kind: 'refused', why, said });
    },
  });
  parts.onStop(() => watcher.close());
  await watcher.ready;
}
