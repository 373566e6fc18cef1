/**
 * The one place a client's options are made from where Redis is (./target.ts): a plain client of
 * the importer's own (`clientOptions`), and BullMQ's queues and workers (`bullmqOptions`), so that
 * every connection of a process goes to the same Redis the same way: its user, its TLS, and how
 * it comes back after a failover.
 *
 * After a failover (docs/operations.md, "Redis in production"):
 * - a connection that is closed (the old master killed, or Sentinel's own `CLIENT KILL` of the
 *   clients of a demoted master) reconnects soon (REDIS_RECONNECT), asking the sentinels anew;
 *   BullMQ's own delay grows to 20 s, longer than the work may stand still;
 * - a connection still open to a master that became a replica answers writes with READONLY, and a
 *   blocked command is ended with UNBLOCKED: both make it reconnect and send the command again
 *   (nothing was written: a replica refuses writes);
 * - a connection to a master that hangs (its host frozen, the network cut) is never closed by
 *   anyone: with a Sentinel set, each client listens on the sentinels for `+switch-master` and
 *   reconnects when it comes (ioredis' failover detector);
 * - the sentinels are asked within REDIS_ANSWER_MS each, so that a hung sentinel is passed over.
 */
import type { RedisOptions } from 'ioredis';

import { ReconnectingSentinelConnector } from './sentinel-connector.js';
import type { RedisEndpoint, RedisTarget, SentinelTarget } from './target.js';
import {
  REDIS_ANSWER_MS,
  REDIS_COMMAND_RETRIES,
  REDIS_RECONNECT,
  SENTINELS_WATCHED,
} from '../policy.js';

export interface ClientNeeds {
  /**
   * Commands wait while Redis is away (a restart, a failover) and go on when it is back, instead
   * of failing after a few reconnections: what a worker in the middle of a row needs.
   * @defaultValue false
   */
  waitWhileAway?: boolean;
  /**
   * Commands issued in the same turn of the event loop go out in one write (auto-pipelining).
   * @defaultValue false
   */
  batched?: boolean;
}

/** A plain client of the importer's (connect.ts), connected by its `connect()`. */
export function clientOptions(target: RedisTarget, needs: ClientNeeds = {}): RedisOptions {
  return {
    ...whereAndWho(target),
    maxRetriesPerRequest: needs.waitWhileAway ? null : REDIS_COMMAND_RETRIES,
    lazyConnect: true,
    enableAutoPipelining: needs.batched ?? false,
  };
}

/** ioredis' options, with a reconnection delay always given (as BullMQ's own type has it). */
export type ReconnectingOptions = RedisOptions & { retryStrategy: (times: number) => number };

/** BullMQ's connections: its commands wait for Redis rather than fail (BullMQ requires it). */
export function bullmqOptions(target: RedisTarget): ReconnectingOptions {
  return { ...whereAndWho(target), maxRetriesPerRequest: null };
}

/** A client asked once at start: no reconnection, no waiting past REDIS_ANSWER_MS (probe.ts). */
export function probeOptions(target: RedisTarget): RedisOptions {
  return {
    ...whereAndWho(target),
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: REDIS_ANSWER_MS,
    retryStrategy: () => null,
    sentinelRetryStrategy: () => null,
    failoverDetector: false,
  };
}

/** Where Redis is, who the client is, over TLS or not, and how it comes back. */
function whereAndWho(target: RedisTarget): ReconnectingOptions {
  const tls = target.tls === undefined ? undefined : tlsOf(target.tls);
  const common: ReconnectingOptions = {
    db: target.db,
    ...credentials(target),
    ...(tls !== undefined && { tls }),
    retryStrategy: reconnectAfter,
    reconnectOnError,
  };
  if (target.kind === 'server') return { ...common, host: target.host, port: target.port };
  // Each node of a Cluster: the Cluster's client (cluster.ts) gives the nodes.
  if (target.kind === 'cluster') return common;
  const asked = credentials(target, target.sentinelAuth ?? 'none');
  return {
    ...common,
    sentinels: target.sentinels.map(({ host, port }) => ({ host, port })),
    name: target.master,
    ...(asked.username !== undefined && { sentinelUsername: asked.username }),
    ...(asked.password !== undefined && { sentinelPassword: asked.password }),
    ...(tls !== undefined && { enableTLSForSentinelMode: true, sentinelTLS: tls }),
    sentinelCommandTimeout: REDIS_ANSWER_MS,
    Connector: ReconnectingSentinelConnector,
    failoverDetector: true,
    sentinelMaxConnections: SENTINELS_WATCHED,
  };
}

/** How a sentinel is asked: with the user and password, the password alone, or neither. */
export type SentinelAuth = 'user' | 'password' | 'none';

/** A sentinel of the set asked once at start (probe.ts), on its own, `auth` as said. */
export function sentinelProbeOptions(
  target: SentinelTarget,
  at: RedisEndpoint,
  auth: SentinelAuth,
): RedisOptions {
  const tls = target.tls === undefined ? undefined : tlsOf(target.tls);
  return {
    host: at.host,
    port: at.port,
    ...credentials(target, auth),
    ...(tls !== undefined && { tls }),
    lazyConnect: true,
    enableReadyCheck: false,
    maxRetriesPerRequest: 0,
    connectTimeout: REDIS_ANSWER_MS,
    commandTimeout: REDIS_ANSWER_MS,
    retryStrategy: () => null,
  };
}

function credentials(
  target: RedisTarget,
  auth: SentinelAuth = 'user',
): { username?: string; password?: string } {
  if (auth === 'none' || target.password === undefined) return {};
  return {
    ...(auth === 'user' && target.username !== undefined && { username: target.username }),
    password: target.password.reveal(),
  };
}

function tlsOf(tls: NonNullable<RedisTarget['tls']>): NonNullable<RedisOptions['tls']> {
  return tls.ca === undefined ? {} : { ca: tls.ca };
}

/** How long before the next reconnection: soon, and never longer than REDIS_RECONNECT.maxMs. */
export function reconnectAfter(times: number): number {
  return Math.min(times * REDIS_RECONNECT.stepMs, REDIS_RECONNECT.maxMs);
}

/**
 * A reply that says this connection is to a master no more: reconnect (2: and send the command
 * again). Anything else is the command's own error.
 */
export function reconnectOnError(error: Error): 2 | false {
  return /^(READONLY|UNBLOCKED)\b/.test(error.message) ? 2 : false;
}
