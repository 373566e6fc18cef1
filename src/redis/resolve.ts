/**
 * Which Redis to use (docs/design.md §2 "Configuration"): REDIS_URL when set, and then it must answer; else the usual
 * local one; else a private `redis-server` with its data (AOF) under the data folder, shared by
 * the importer's processes on this machine; else a clear error saying how to get one.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { Redis } from 'ioredis';
import type { Logger } from 'pino';

import type { Speech } from '../language/languages.js';
import { type Words, wordsFor } from '../language/words.js';
import { type ClusterProblem, clusterNodesText, clusterProblem, isClusterUrl } from './cluster.js';
import { warnIfForgetful } from './persistence.js';
import { type LocalRedis, redisServerAvailable, startLocalRedis } from './local-server.js';
import { redactUrl } from './url.js';
import { UserError } from '../errors.js';
import { REDIS_ANSWER_MS } from '../policy.js';

export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

export interface ResolvedRedis {
  url: string;
  /** Where it came from, for the start-up message. */
  source: 'REDIS_URL' | 'default' | 'private';
  /** Stops the private server this process started, if it did. */
  release(): Promise<void>;
}

export interface ResolveRedisOptions {
  /** REDIS_URL, if set. */
  configured?: string;
  dataDir: string;
  /** @defaultValue `redis://127.0.0.1:6379` */
  defaultUrl?: string;
  binary?: string;
  /**
   * Whether a private redis-server may be started when none answers. A process that only looks
   * at imports (the dashboard alone) must not: it would see an empty Redis of its own.
   * @defaultValue true
   */
  startPrivate?: boolean;
}

export async function resolveRedis(options: ResolveRedisOptions): Promise<ResolvedRedis> {
  const nothing = () => Promise.resolve();
  if (options.configured !== undefined && isClusterUrl(options.configured)) {
    const trouble = await clusterProblem(options.configured);
    if (trouble !== undefined) throw clusterUnavailable(options.configured, trouble);
    return { url: options.configured, source: 'REDIS_URL', release: nothing };
  }
  if (options.configured !== undefined) {
    const problem = await ping(options.configured);
    if (problem !== null) {
      throw new UserError(
        'redis.unavailable',
        `REDIS_URL ${redactUrl(options.configured)} does not answer (${problem}): start that Redis, or unset REDIS_URL to use a local one.`,
        { variant: 'configured', values: { url: redactUrl(options.configured), problem } },
      );
    }
    return { url: options.configured, source: 'REDIS_URL', release: nothing };
  }
  const defaultUrl = options.defaultUrl ?? DEFAULT_REDIS_URL;
  if ((await ping(defaultUrl)) === null)
    return { url: defaultUrl, source: 'default', release: nothing };

  // A private server another importer process on this machine started already?
  const dir = join(options.dataDir, 'redis');
  const urlFile = join(dir, 'url');
  const known = await readFile(urlFile, 'utf8').then(
    (text) => text.trim(),
    () => undefined,
  );
  if (known !== undefined && (await ping(known)) === null)
    return { url: known, source: 'private', release: nothing };

  if (options.startPrivate === false) {
    throw new UserError(
      'redis.unavailable',
      `no Redis answers at ${defaultUrl}, and no importer's private redis-server runs under ${dir}: start order-importer watch (or worker) first, or set REDIS_URL.`,
      { variant: 'no-private', values: { url: defaultUrl, dir } },
    );
  }
  if (!redisServerAvailable(options.binary)) {
    throw new UserError(
      'redis.unavailable',
      `no Redis answers at ${defaultUrl} and redis-server is not installed: install it (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis) or set REDIS_URL.`,
      { variant: 'not-installed', values: { url: defaultUrl } },
    );
  }
  let server: LocalRedis;
  try {
    server = await startLocalRedis({
      dir,
      appendOnly: true,
      ...(options.binary && { binary: options.binary }),
    });
  } catch (error) {
    throw new UserError(
      'redis.unavailable',
      `could not start a private redis-server in ${dir}: ${(error as Error).message}`,
      {
        cause: error,
        variant: 'not-started',
        values: { dir, reason: (error as Error).message },
      },
    );
  }
  await writeFile(urlFile, `${server.url}\n`);
  return { url: server.url, source: 'private', release: () => server.stop() };
}

/** A Cluster's nodes that do not answer, or are no Cluster: one line (the catalogue's). */
function clusterUnavailable(url: string, trouble: ClusterProblem): UserError {
  const nodes = clusterNodesText(url);
  const { problem } = trouble;
  return trouble.kind === 'away'
    ? new UserError(
        'redis.unavailable',
        `no node of the Redis Cluster ${nodes} (REDIS_URL) answers (${problem}): start the Cluster, or correct REDIS_URL.`,
        { variant: 'cluster', values: { nodes, problem } },
      )
    : new UserError(
        'redis.unavailable',
        `REDIS_URL names a Redis Cluster, but ${nodes} is no Cluster (${problem}): name a single server as redis://host:port.`,
        { variant: 'not-cluster', values: { nodes, problem } },
      );
}

/** null when Redis answers PING, else why not. */
async function ping(url: string): Promise<string | null> {
  const client = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: REDIS_ANSWER_MS,
    retryStrategy: () => null,
  });
  client.on('error', () => undefined); // the failure is reported by connect() below
  try {
    await client.connect();
    await client.ping();
    return null;
  } catch (error) {
    return (error as Error).message;
  } finally {
    client.disconnect();
  }
}

/** Which Redis a process uses, in one line for its terminal (never a password). */
export function redisAnnouncement(redis: ResolvedRedis, words: Words = wordsFor('en')): string {
  if (redis.source === 'private') return words.t('cli.redis.private', { url: redis.url });
  return words.t('cli.redis.url', {
    url: redactUrl(redis.url),
    local: redis.source === 'default' ? 'yes' : 'no',
  });
}

/**
 * Which Redis a process uses, said once at start; and, when it keeps nothing on disk, what a
 * restart of it would cost (persistence.ts).
 */
export async function announceRedis(
  redis: ResolvedRedis,
  announce: (line: string) => void,
  logger?: Logger,
  language: Speech = 'en',
): Promise<void> {
  const words = wordsFor(language);
  announce(redisAnnouncement(redis, words));
  await warnIfForgetful(redis.url, announce, logger, words);
}
