/**
 * Which Redis to use (docs/design.md §2 "Configuration"): REDIS_URL when set, and then it must
 * answer (probe.ts: one line saying why not); else the usual local one; else a private
 * `redis-server` with its data (AOF) under the data folder, shared by the importer's processes on
 * this machine; else a clear error saying how to get one.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import type { Logger } from 'pino';

import type { Speech } from '../language/languages.js';
import { type Words, wordsFor } from '../language/words.js';
import { warnIfForgetful } from './persistence.js';
import { type LocalRedis, redisServerAvailable, startLocalRedis } from './local-server.js';
import { configuredTarget, unusable } from './configured.js';
import { probeRedis } from './probe.js';
import { parseRedisUrl, readRedisUrl, type RedisTarget } from './target.js';
import { UserError } from '../errors.js';

export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

export interface ResolvedRedis {
  /** Where it is: every client of the process is made from it (options.ts). */
  target: RedisTarget;
  /** Where it came from, for the start-up message. */
  source: 'REDIS_URL' | 'default' | 'private';
  /** Stops the private server this process started, if it did. */
  release(): Promise<void>;
}

export interface ResolveRedisOptions {
  /** REDIS_URL, if set. */
  configured?: string;
  /** REDIS_TLS_CA_FILE, if set: read here, once, for a `rediss` REDIS_URL. */
  tlsCaFile?: string;
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
  if (options.configured !== undefined) {
    const target = await configuredTarget(options.configured, options.tlsCaFile);
    const probed = await probeRedis(target);
    if ('problem' in probed) throw unusable(target, probed.problem);
    return { target: probed.target, source: 'REDIS_URL', release: nothing };
  }
  // A CA for the local default, which is no TLS: the same refusal as beside a plain REDIS_URL.
  const defaultUrl = options.defaultUrl ?? DEFAULT_REDIS_URL;
  const defaultTarget = await configuredTarget(defaultUrl, options.tlsCaFile);
  if (await answers(defaultTarget))
    return { target: defaultTarget, source: 'default', release: nothing };

  // A private server another importer process on this machine started already?
  const dir = join(options.dataDir, 'redis');
  const urlFile = join(dir, 'url');
  const known = await readFile(urlFile, 'utf8').then(
    (text) => text.trim(),
    () => undefined,
  );
  const knownTarget = known === undefined ? undefined : privateTarget(known);
  if (knownTarget !== undefined && (await answers(knownTarget)))
    return { target: knownTarget, source: 'private', release: nothing };
  const url = defaultTarget.shown;
  if (options.startPrivate === false) {
    throw new UserError(
      'redis.unavailable',
      `no Redis answers at ${url}, and no importer's private redis-server runs under ${dir}: start order-importer watch (or worker) first, or set REDIS_URL.`,
      { variant: 'no-private', values: { url, dir } },
    );
  }
  if (!redisServerAvailable(options.binary)) {
    throw new UserError(
      'redis.unavailable',
      `no Redis answers at ${url} and redis-server is not installed: install it (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis) or set REDIS_URL.`,
      { variant: 'not-installed', values: { url } },
    );
  }
  const server = await startPrivate(dir, options.binary);
  await writeFile(urlFile, `${server.url}\n`);
  return { target: parseRedisUrl(server.url), source: 'private', release: () => server.stop() };
}

async function answers(target: RedisTarget): Promise<boolean> {
  return !('problem' in (await probeRedis(target)));
}

/** The URL a private server's file holds; a file that holds something else is no server's. */
function privateTarget(url: string): RedisTarget | undefined {
  const read = readRedisUrl(url);
  return 'target' in read ? read.target : undefined;
}

async function startPrivate(dir: string, binary: string | undefined): Promise<LocalRedis> {
  try {
    return await startLocalRedis({ dir, appendOnly: true, ...(binary && { binary }) });
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
}

/** Which Redis a process uses, in one line for its terminal (never a password). */
export function redisAnnouncement(redis: ResolvedRedis, words: Words = wordsFor('en')): string {
  if (redis.source === 'private') return words.t('cli.redis.private', { url: redis.target.shown });
  return words.t('cli.redis.url', {
    url: redis.target.shown,
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
  await warnIfForgetful(redis.target, announce, logger, words);
}
