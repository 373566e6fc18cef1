/**
 * What the importers of one process share (importers.ts, `openEach`): its Redis, catalogue and
 * installation, its two Redis clients and its doorbell (every office's workers on demand), so
 * that its Redis connections do not grow with its offices (docs/design.md "Many offices").
 */
import { openProcessClients } from '../context.js';
import type { Settings } from '../settings/load.js';
import { Doorbell, workerCaps } from '../workers/doorbell.js';
import { markedFirstUse } from './context-start.js';
import type { OpenImporterOptions } from './importer.js';
import { catalogueOf, installationOfSettings, redisOf } from './process-parts.js';

/** The shared parts; what opened them closes them once every importer is closed. */
export async function sharedParts(
  settings: Settings,
  told: Pick<OpenImporterOptions, 'announce' | 'logger'>,
): Promise<NonNullable<OpenImporterOptions['shared']>> {
  const catalogue = await catalogueOf(settings);
  const installation = await installationOfSettings(settings);
  const redis = await redisOf(settings, told.announce);
  // One Redis for every office: its outage is said once for the process, not once per office.
  const saidOnce = {};
  try {
    const clients = await openProcessClients(redis.target, {
      ...told,
      now: Date.now,
      language: settings.language,
      saidOnce,
    });
    try {
      await markedFirstUse(redis.target, settings.queuePrefix, installation, clients.redis);
    } catch (error) {
      clients.close();
      throw error;
    }
    const doorbell = new Doorbell({ logger: told.logger, ...workerCaps(redis.target) });
    return { redis, catalogue, installation, saidOnce, clients, doorbell };
  } catch (error) {
    await redis.release();
    throw error;
  }
}
