/**
 * The Redis of REDIS_URL, read once at start with its private CA (REDIS_TLS_CA_FILE), and what a
 * person is told, in one line, when it cannot be used (probe.ts says why).
 */
import { X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';

import { type MessageKey, wordsFor } from '../language/words.js';
import type { ProbeProblem } from './probe.js';
import { parseRedisUrl, type RedisTarget } from './target.js';
import { UserError } from '../errors.js';

/**
 * REDIS_URL's target (the settings checked the URL); a `rediss` one with REDIS_TLS_CA_FILE's CA.
 * A CA beside a URL not spoken to over TLS would be taken for TLS that is not there: refused.
 */
export async function configuredTarget(url: string, caFile?: string): Promise<RedisTarget> {
  const target = parseRedisUrl(url);
  if (caFile === undefined) return target;
  if (target.tls === undefined)
    throw said('config.invalid', 'tls-ca-without-tls', { url: target.shown });
  return parseRedisUrl(url, await caOf(caFile));
}

/** The CA file's certificates (PEM), read whole; one that cannot be read or used is one line. */
async function caOf(file: string): Promise<Buffer> {
  let pem: Buffer;
  try {
    pem = await readFile(file);
  } catch (error) {
    throw caError(file, (error as Error).message, error);
  }
  try {
    // The first certificate of the file parsed: a file of something else is said now, not as a
    // failed handshake later.
    new X509Certificate(pem);
  } catch (error) {
    throw caError(file, 'it holds no certificate in PEM (-----BEGIN CERTIFICATE-----)', error);
  }
  return pem;
}

function caError(file: string, reason: string, cause: unknown): UserError {
  return said('config.invalid', 'tls-ca-unreadable', { file, reason }, cause);
}

/** A Redis that cannot be used, in one line saying why and what to do. */
export function unusable(target: RedisTarget, problem: ProbeProblem): UserError {
  const url = target.shown;
  switch (problem.kind) {
    case 'no-answer':
      return said('redis.unavailable', 'configured', { url, problem: problem.reason });
    case 'refused':
      return said('redis.unavailable', 'refused', { url, reason: problem.reason });
    case 'certificate':
      return said('redis.unavailable', 'certificate', {
        url,
        reason: problem.reason,
        ca: target.tls?.ca === undefined ? 'none' : 'given',
      });
    case 'no-sentinel':
      return said('redis.unavailable', 'no-sentinel', { url, reason: problem.reason });
    case 'no-node':
      return said('redis.unavailable', 'cluster', { url, problem: problem.reason });
    case 'not-cluster':
      return said('redis.unavailable', 'not-cluster', { url, problem: problem.reason });
    case 'no-master':
      return said('redis.unavailable', 'no-master', {
        url,
        name: target.kind === 'sentinel' ? target.master : '',
        known: problem.known === '' ? 'none' : problem.known,
      });
  }
}

/** A UserError whose English message is the catalogue's, so that both always say the same. */
function said(
  key: 'config.invalid' | 'redis.unavailable',
  variant: string,
  values: Record<string, string>,
  cause?: unknown,
): UserError {
  const message = wordsFor('en').t(`cli.error.${key}.${variant}` as MessageKey, values);
  return new UserError(key, message, { variant, values, ...(cause !== undefined && { cause }) });
}
