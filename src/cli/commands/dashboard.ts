/**
 * `order-importer dashboard`: the dashboard alone, beside `watch` or `worker` processes on the
 * same Redis, e.g. on another port or for people who must not run imports. It only reads.
 */
import { startDashboardAlone } from '../../app/dashboard.js';
import { announceHosts, refuseExposure } from '../../app/dashboard-serving.js';
import { createLogger } from '../../logger.js';
import { redactUrl } from '../../redis/url.js';
import type { SettingFlags } from '../../settings/load.js';
import type { CommandIo } from '../io.js';
import { commandSettings } from '../setup.js';

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
  const running = await startDashboardAlone(settings, logger);
  const { dashboard } = running;
  try {
    announce(`Dashboard: ${dashboard.url}/  (queues: ${dashboard.url}/queues)`);
    announceHosts(settings, dashboard, announce);
    announce(
      `It shows the imports on Redis ${redactUrl(running.redisUrl)} (prefix ${settings.queuePrefix}); it runs none itself.`,
    );
    if (settings.apiBaseUrl === undefined)
      announce('No API_BASE_URL is set: /healthz leaves the API out ("api": null).');
    announce('Stop with Ctrl+C.');
    await io.stopSignal();
  } finally {
    await running.close();
  }
  announce('Stopped.');
  return 0;
}
