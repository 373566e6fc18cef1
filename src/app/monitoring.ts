/**
 * A working process's health over the process's one registry (its importers count into it),
 * and, for `worker` with METRICS_PORT, the small server of /metrics, /healthz and
 * /readyz, listening from the start so that /readyz says "starting" while the API is waited for.
 */
import type { Logger } from 'pino';

import type { Metrics } from '../metrics/metrics.js';
import { type RunningMetricsServer, startMetricsServer } from '../metrics/server.js';
import type { Settings } from '../settings/load.js';
import { ProcessHealth } from '../workers/health.js';
import { UserError } from '../errors.js';
import { wordsFor } from '../language/words.js';

export interface Monitoring {
  metrics: Metrics;
  health: ProcessHealth;
  /** Where METRICS_PORT serves, when it does. */
  served?: RunningMetricsServer;
  close(): Promise<void>;
}

export async function startMonitoring(
  settings: Settings,
  logger: Logger,
  serve: { metrics: Metrics; port?: number; announce: (line: string) => void },
): Promise<Monitoring> {
  const { metrics } = serve;
  const health = new ProcessHealth({ apiWaitMs: settings.apiWaitS * 1000, logger });
  if (serve.port === undefined) return { metrics, health, close: () => Promise.resolve() };
  let served: RunningMetricsServer;
  try {
    served = await startMetricsServer({
      host: settings.metricsHost,
      port: serve.port,
      metrics,
      health: () => health.health(),
      readiness: () => health.readiness(),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EADDRINUSE' && code !== 'EACCES' && code !== 'EADDRNOTAVAIL') throw error;
    throw new UserError(
      'metrics.port-unavailable',
      `METRICS_PORT: cannot listen on ${settings.metricsHost}:${serve.port} (${code}): choose another port (or METRICS_HOST).`,
      { cause: error, values: { host: settings.metricsHost, port: String(serve.port), code } },
    );
  }
  serve.announce(wordsFor(settings.language).t('cli.metrics', { url: served.url }));
  return { metrics, health, served, close: () => served.close() };
}
