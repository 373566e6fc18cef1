/**
 * `order-importer dashboard`: the dashboard alone, beside `watch` or `worker` processes on the
 * same Redis, e.g. on another port or for people who must not run imports. It only reads.
 */
import { createLogger } from '../../logger.js';
import { Metrics, queueCountsOf } from '../../metrics/metrics.js';
import { RedisUnavailableError, resolveRedis } from '../../redis/resolve.js';
import { redactUrl } from '../../redis/url.js';
import type { SettingFlags } from '../../settings/load.js';
import { ImportsMonitor } from '../../store/monitor.js';
import { forUser } from '../errors.js';
import type { CommandIo } from '../io.js';
import { commandSettings } from '../setup.js';
import { announceHosts, apiHealth, refuseExposure, serveDashboard } from './dashboard-serving.js';

export interface DashboardCommandOptions {
  config?: string;
  settings?: SettingFlags;
}

export async function dashboardCommand(
  opts: DashboardCommandOptions,
  io: CommandIo,
): Promise<number> {
  const settings = await commandSettings(io, opts.config, opts.settings);
  refuseExposure(settings);
  const announce = (line: string) => io.stderr.write(`${line}\n`);
  const logger = createLogger({ level: settings.logLevel, destination: io.stderr });
  const redis = await forUser(
    resolveRedis({ configured: settings.redisUrl, dataDir: settings.dataDir, startPrivate: false }),
    RedisUnavailableError,
  );
  const api = await apiHealth(settings);
  let monitor: ImportsMonitor | undefined;
  try {
    monitor = await ImportsMonitor.connect({
      redisUrl: redis.url,
      prefix: settings.queuePrefix,
      logger,
    });
    const watched = monitor;
    // It imports nothing: its counters stay at 0; the queues and the process are what it shows.
    const metrics = new Metrics();
    metrics.watchQueues(queueCountsOf(watched.queues));
    const dashboard = await serveDashboard(
      settings,
      {
        overview: () => watched.overview(),
        notTaken: () => watched.notTaken(),
        sheet: (sheetId) => watched.sheet(sheetId),
        results: watched.results,
        health: async () => ({ redis: await watched.redisAnswers(), api: await api.answers() }),
        queues: watched.queues,
        metrics,
        logger,
      },
      'set DASHBOARD_PORT or --port',
    );
    announce(`Dashboard: ${dashboard.url}/  (queues: ${dashboard.url}/queues)`);
    announceHosts(settings, dashboard, announce);
    announce(
      `It shows the imports on Redis ${redactUrl(redis.url)} (prefix ${settings.queuePrefix}); it runs none itself.`,
    );
    if (settings.apiBaseUrl === undefined)
      announce('No API_BASE_URL is set: /healthz leaves the API out ("api": null).');
    announce('Stop with Ctrl+C.');
    await io.stopSignal();
    await dashboard.close();
    announce('Stopped.');
    return 0;
  } finally {
    await monitor?.close();
    await api.close();
  }
}
