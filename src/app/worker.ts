/**
 * A worker process assembled (`worker`): its monitoring (METRICS_PORT, listening from the start so
 * that /readyz says "starting" while the API is waited for), then one importer with workers per
 * configured connection, whose health the monitoring then reports.
 */
import type { Logger } from 'pino';

import type { Settings } from '../settings/load.js';
import type { ServiceStart } from './importer.js';
import { type ClosingAll, type Importers, openEach } from './importers.js';
import { startMonitoring } from './monitoring.js';

export interface RunningWorker {
  importers: Importers;
  /** /readyz says it is stopping (the first stop signal). */
  stopping(): void;
  /** Every importer closed (its rows in flight let finish, unless `force`), then the monitoring. */
  close(how: ClosingAll): Promise<void>;
}

export async function startWorker(options: {
  settings: Settings;
  logger: Logger;
  announce: (line: string) => void;
  start: ServiceStart;
}): Promise<RunningWorker> {
  const { settings, logger, announce, start } = options;
  const monitoring = await startMonitoring(settings, logger, {
    metrics: start.metrics,
    announce,
    ...(settings.metricsPort !== undefined && { port: settings.metricsPort }),
  });
  // Every configured connection: this worker holds each one's token, and works its sheets.
  const importers = await openEach(settings, settings.connections, { announce, logger }, (one) =>
    start.opened({ settings, logger, announce, ...one }),
  ).catch(async (error: unknown) => {
    await monitoring.close();
    throw error;
  });
  monitoring.health.started(importers.all.map((importer) => importer.ctx));
  return {
    importers,
    stopping: () => {
      monitoring.health.stopping();
    },
    close: async (how) => {
      await importers.close(how);
      // A second signal stops the importers at once; the first close ends the monitoring.
      if (how.force !== true) await monitoring.close();
    },
  };
}
