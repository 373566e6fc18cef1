/**
 * The dashboard alone assembled (`dashboard`): beside `watch` or `worker` processes on the same
 * Redis, it reads the imports of its own configuration's offices (`ImportsMonitor`) and runs
 * none itself.
 */
import type { Logger } from 'pino';

import type { RunningDashboard } from '../dashboard/server.js';
import { Metrics, queueCountsOf } from '../metrics/metrics.js';
import { resolveRedis } from '../redis/resolve.js';
import type { Settings } from '../settings/load.js';
import { ImportsMonitor } from '../store/monitor.js';
import { apiHealth, serveDashboard } from './dashboard-serving.js';
import { configuredOffices } from './offices.js';
import { redisSettings } from './process-parts.js';

export interface RunningDashboardAlone {
  dashboard: RunningDashboard;
  /** The Redis whose imports it shows, as messages say it (no password). */
  redisUrl: string;
  close(): Promise<void>;
}

export async function startDashboardAlone(
  settings: Settings,
  logger: Logger,
): Promise<RunningDashboardAlone> {
  // This configuration's offices only: another installation may share the Redis and the prefix.
  const offices = (await configuredOffices(settings)).map(({ id, name }) => ({ id, name }));
  const redis = await resolveRedis({ ...redisSettings(settings), startPrivate: false });
  const api = await apiHealth(settings);
  let monitor: ImportsMonitor | undefined;
  try {
    monitor = await ImportsMonitor.connect({
      redis: redis.target,
      prefix: settings.queuePrefix,
      logger,
      offices,
    });
    const watched = monitor;
    // It imports nothing: its counters stay at 0; the queues and the process are what it shows.
    const metrics = new Metrics();
    for (const { office, queues } of watched.byOffice)
      metrics.watchQueues(queueCountsOf(office.name, queues));
    const dashboard = await serveDashboard(
      settings,
      {
        offices,
        overview: () => watched.overview(),
        notTaken: () => watched.notTaken(),
        sheet: (sheetId) => watched.sheet(sheetId),
        results: watched.results,
        health: async () => ({ redis: await watched.redisAnswers(), api: await api.answers() }),
        queues: watched.queues,
        metrics,
        logger,
        agenda: () => watched.agenda(),
      },
      'port',
    );
    return {
      dashboard,
      redisUrl: redis.target.shown,
      close: async () => {
        await dashboard.close();
        await watched.close();
        await api.close();
      },
    };
  } catch (error) {
    await monitor?.close();
    await api.close();
    throw error;
  }
}
