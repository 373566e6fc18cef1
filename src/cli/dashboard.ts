/**
 * `order-importer dashboard`: the dashboard alone, beside `watch` or `worker` processes on the
 * same Redis, e.g. on another port or for people who must not run imports. It only reads.
 */
import { Agent } from 'undici';

import { ApiClient } from '../api/client.js';
import type { Settings } from '../settings/load.js';
import {
  DashboardError,
  type DashboardOptions,
  exposureProblem,
  type RunningDashboard,
  startDashboard,
} from '../dashboard/server.js';
import { LOOPBACK_HOSTS } from '../dashboard/hosts.js';
import { createLogger } from '../logger.js';
import { ImportsMonitor } from '../store/monitor.js';
import { RedisUnavailableError, resolveRedis } from '../redis/resolve.js';
import { redactUrl } from '../redis/url.js';
import { CliError } from './errors.js';
import { loadCommandSettings } from './import.js';
import { probeApi, readToken } from './importer.js';
import type { CommandIo } from './io.js';

export interface DashboardCommandOptions {
  config?: string;
  dataDir?: string;
  host?: string;
  port?: string;
  hosts?: string;
}

export async function dashboardCommand(
  opts: DashboardCommandOptions,
  io: CommandIo,
): Promise<number> {
  const settings = await loadCommandSettings(io, opts.config, {
    dataDir: opts.dataDir,
    dashboardHost: opts.host,
    dashboardPort: opts.port,
    dashboardHosts: opts.hosts,
  });
  refuseExposure(settings);
  const say = (line: string) => io.stderr.write(`${line}\n`);
  const logger = createLogger({ level: settings.logLevel });
  const redis = await resolveRedis({
    configured: settings.redisUrl,
    dataDir: settings.dataDir,
    startPrivate: false,
  }).catch((error: unknown) => {
    if (error instanceof RedisUnavailableError)
      throw new CliError(error.message, 1, { cause: error });
    throw error;
  });
  const api = await apiHealth(settings);
  let monitor: ImportsMonitor | undefined;
  try {
    monitor = await ImportsMonitor.connect({
      redisUrl: redis.url,
      prefix: settings.queuePrefix,
      logger,
    });
    const open = monitor;
    const dashboard = await serveDashboard(
      settings,
      {
        overview: () => open.overview(),
        notTaken: () => open.notTaken(),
        health: async () => ({ redis: await open.redisAnswers(), api: await api.answers() }),
        queues: open.queues,
        logger,
      },
      'set DASHBOARD_PORT or --port',
    );
    say(`Dashboard: ${dashboard.url}/  (queues: ${dashboard.url}/queues)`);
    sayHosts(settings, dashboard, say);
    say(
      `It shows the imports on Redis ${redactUrl(redis.url)} (prefix ${settings.queuePrefix}); it runs none itself.`,
    );
    if (settings.apiBaseUrl === undefined)
      say('No API_BASE_URL is set: /healthz leaves the API out ("api": null).');
    say('Stop with Ctrl+C.');
    await io.stopSignal();
    await dashboard.close();
    say('Stopped.');
    return 0;
  } finally {
    await monitor?.close();
    await api.close();
  }
}

/** Refused before anything starts: a dashboard open beyond this machine needs a password. */
export function refuseExposure(settings: Settings): void {
  const problem = exposureProblem({
    host: settings.dashboardHost,
    ...(settings.dashboardUser !== undefined && { user: settings.dashboardUser }),
    ...(settings.dashboardPassword !== undefined && { password: settings.dashboardPassword }),
  });
  if (problem !== undefined) throw new CliError(problem, 1);
}

/**
 * Which host names the dashboard answers, when someone set it up to be reached by another name
 * than localhost: a browser that uses another one gets a refusal, and this says why.
 */
export function sayHosts(
  settings: Settings,
  dashboard: RunningDashboard,
  say: (line: string) => void,
): void {
  const named = settings.dashboardHosts.length > 0;
  if (!named && LOOPBACK_HOSTS.includes(settings.dashboardHost)) return;
  const advice = named ? '' : ': add the names it is reached by to DASHBOARD_HOSTS';
  say(`The dashboard answers only the host names ${dashboard.hosts.join(', ')}${advice}.`);
}

/** The dashboard on the settings' host and port, with a clear error when it cannot listen. */
export async function serveDashboard(
  settings: Settings,
  parts: Pick<DashboardOptions, 'overview' | 'notTaken' | 'health' | 'queues' | 'logger'>,
  /** What to do when the port is taken, in the words of the command. */
  portAdvice: string,
): Promise<RunningDashboard> {
  try {
    return await startDashboard({
      host: settings.dashboardHost,
      port: settings.dashboardPort,
      hosts: settings.dashboardHosts,
      ...(settings.dashboardUser !== undefined && { user: settings.dashboardUser }),
      ...(settings.dashboardPassword !== undefined && { password: settings.dashboardPassword }),
      ...parts,
    });
  } catch (error) {
    if (error instanceof DashboardError) throw new CliError(error.message, 1, { cause: error });
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES') {
      throw new CliError(
        `The dashboard cannot listen on ${settings.dashboardHost}:${settings.dashboardPort} (${code}): ${portAdvice}.`,
        1,
        { cause: error },
      );
    }
    throw error;
  }
}

/**
 * Whether the API answers, for /healthz. Without API_BASE_URL the orders go to a sandbox inside
 * the importing process, which a dashboard alone cannot see: the answer is then null.
 */
async function apiHealth(
  settings: Settings,
): Promise<{ answers(): Promise<boolean | null>; close(): Promise<void> }> {
  if (settings.apiBaseUrl === undefined)
    return { answers: () => Promise.resolve(null), close: () => Promise.resolve() };
  const dispatcher = new Agent({ keepAliveTimeout: 30_000, connections: 2 });
  const client = new ApiClient({
    baseUrl: settings.apiBaseUrl,
    token: await readToken(settings),
    timeoutMs: settings.apiTimeoutMs,
    dispatcher,
  });
  return {
    answers: async () => (await probeApi(client)) === undefined,
    close: () => dispatcher.close(),
  };
}
