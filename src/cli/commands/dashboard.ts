/**
 * `order-importer dashboard`: the dashboard alone, beside `watch` or `worker` processes on the
 * same Redis, e.g. on another port or for people who must not run imports. It only reads.
 */
import { startDashboardAlone } from '../../app/dashboard.js';
import { announceHosts, refuseExposure } from '../../app/dashboard-exposure.js';
import { createLogger } from '../../logger.js';
import { redactUrl } from '../../redis/url.js';
import type { SettingFlags } from '../../settings/load.js';
import type { CommandIo } from '../io.js';
import { commandSettings, commandWords } from '../setup.js';

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
  const words = commandWords(settings);
  const announce = (line: string) => io.stderr.write(`${line}\n`);
  const logger = createLogger({ level: settings.logLevel, destination: io.stderr });
  const running = await startDashboardAlone(settings, logger);
  const { dashboard } = running;
  try {
    announce(words.t('cli.dashboard.url', { url: dashboard.url }));
    announceHosts(settings, dashboard, announce);
    announce(
      words.t('cli.dashboard.shows', {
        url: redactUrl(running.redisUrl),
        prefix: settings.queuePrefix,
      }),
    );
    if (settings.apiBaseUrl === undefined) announce(words.t('cli.dashboard.no-api'));
    announce(words.t('cli.stop-hint'));
    await io.stopSignal();
  } finally {
    await running.close();
  }
  announce(words.t('cli.stopped'));
  return 0;
}
