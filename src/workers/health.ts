/**
 * A working process's `/healthz` and `/readyz` (watch, worker), from its contexts: Redis pinged
 * with a short timeout (a scrape never hangs on it), the API judged from what the work saw (a
 * refused token; an outage longer than API_WAIT_S), never by a request of its own, so that a
 * probe every few seconds costs the API nothing.
 */
import type { Logger } from 'pino';

import type { Context } from '../context.js';
import { type Health, healthOf, type HealthSources, type Readiness } from '../metrics/health.js';
import { pingRedis } from '../redis/connect.js';
import { REDIS_PING_MS } from '../policy.js';

export interface ProcessHealthOptions {
  /** API_WAIT_S in ms: an API away for longer is a reason to be restarted or looked at. */
  apiWaitMs: number;
  logger: Logger;
}

export class ProcessHealth implements HealthSources {
  readonly #options: ProcessHealthOptions;
  #contexts: readonly Context[] = [];
  #stopping = false;

  constructor(options: ProcessHealthOptions) {
    this.#options = options;
  }

  /** The process's contexts, once opened and their workers started: it is ready from now. */
  started(contexts: readonly Context[]): void {
    this.#contexts = contexts;
  }

  /** A stop begins: not ready any more (healthy still, while the rows in flight finish). */
  stopping(): void {
    this.#stopping = true;
  }

  async health(): Promise<Health> {
    const reasons: string[] = [];
    const redis = await this.#redisAnswers();
    if (!redis) reasons.push(this.#redisDown());
    const apiReasons = this.#contexts.flatMap((ctx) => apiReasonsOf(ctx, this.#options.apiWaitMs));
    reasons.push(...apiReasons);
    const api = this.#contexts.length === 0 ? null : apiReasons.length === 0;
    return healthOf({ reasons, redis, api });
  }

  async readiness(): Promise<Readiness> {
    if (this.#stopping || this.#contexts.some((ctx) => ctx.stop.stopping.signal.aborted))
      return { status: 'stopping', reasons: ['stopping: the rows in flight are finishing'] };
    if (this.#contexts.length === 0)
      return { status: 'starting', reasons: ['starting: Redis, the API and the workers'] };
    if (!(await this.#redisAnswers()))
      return { status: 'unavailable', reasons: [this.#redisDown()] };
    return { status: 'ready', reasons: [] };
  }

  async #redisAnswers(): Promise<boolean> {
    const ctx = this.#contexts[0];
    // Before the contexts are open, Redis was not reached yet: nothing known against it.
    if (ctx === undefined) return true;
    return pingRedis(ctx.redis, this.#options.logger, REDIS_PING_MS);
  }

  #redisDown(): string {
    return 'Redis does not answer: no sheet or row can be taken or recorded';
  }
}

/** Why `ctx`'s API keeps this process from its work: a refused token, a long outage. */
function apiReasonsOf(ctx: Context, apiWaitMs: number): string[] {
  const where = `the API at ${ctx.connection.apiBaseUrl} (connection ${ctx.connection.name})`;
  const refused = ctx.metrics.refusedToken(ctx.connection.name);
  const reasons: string[] = [];
  if (refused !== undefined)
    reasons.push(`${where} refused the token (${refused}): set a valid API_TOKEN and restart`);
  const lasted = ctx.outages.api.lasted();
  if (lasted > apiWaitMs) {
    reasons.push(
      `${where} has not answered for ${Math.round(lasted / 1000)} s, longer than API_WAIT_S (${Math.round(apiWaitMs / 1000)} s)`,
    );
  }
  return reasons;
}
