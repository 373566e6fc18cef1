/**
 * Whether the Redis of a target can be used, asked once at start (resolve.ts) and within a bounded
 * time, so that a command that cannot use it ends with one line saying why, never hangs:
 * nothing answers, the user and password are refused, the certificate is not trusted, no
 * sentinel answers, or the sentinels know no master by that name. A Sentinel set is asked
 * sentinel by sentinel first: a client in Sentinel mode would ask them again and again, for ever,
 * for a master they do not know.
 */
import { Redis } from 'ioredis';

import { reasonText } from '../outage.js';
import { probeCluster } from './cluster.js';
import { within } from './within.js';
import { probeOptions, sentinelProbeOptions, type SentinelAuth } from './options.js';
import type { RedisEndpoint, RedisTarget, SentinelTarget } from './target.js';
import { REDIS_PROBE_MS } from '../policy.js';

export type ProbeProblem =
  /** Nothing answers (refused, reset, timed out). */
  | { kind: 'no-answer'; reason: string }
  /** Redis (or a sentinel) refused the user and password. */
  | { kind: 'refused'; reason: string }
  /** A TLS certificate that no CA given trusts, or one made out for another host. */
  | { kind: 'certificate'; reason: string }
  /** Of a Sentinel set: no sentinel answers. */
  | { kind: 'no-sentinel'; reason: string }
  /** Of a Sentinel set: the sentinels that answer know no master by that name. */
  | { kind: 'no-master'; known: string }
  /** Of a Cluster: no node answers, or its slots are not all served (cluster.ts). */
  | { kind: 'no-node'; reason: string }
  /** Of a Cluster: its nodes answer as single servers, without cluster support. */
  | { kind: 'not-cluster'; reason: string };

/** The target it answered at (a Sentinel set's with how its sentinels are asked), or why not. */
export type Probed = { target: RedisTarget } | { problem: ProbeProblem };

export async function probeRedis(target: RedisTarget): Promise<Probed> {
  if (target.kind === 'cluster') {
    const probed = await probeCluster(target);
    if (probed === undefined) return { target };
    if (probed.kind === 'not-cluster') return { problem: probed };
    const problem = problemOf(probed.error);
    if (problem.kind !== 'no-answer') return { problem };
    return { problem: { kind: 'no-node', reason: problem.reason } };
  }
  let answering: RedisTarget = target;
  if (target.kind === 'sentinel') {
    const asked = await askSentinels(target);
    if ('problem' in asked) return asked;
    answering = asked.target;
  }
  const failure = await pingOnce(answering);
  return failure === undefined ? { target: answering } : { problem: problemOf(failure) };
}

/** Connects once and PINGs, within REDIS_PROBE_MS: the error that stopped it, if any. */
async function pingOnce(target: RedisTarget): Promise<Error | undefined> {
  const client = new Redis(probeOptions(target));
  let last: Error | undefined;
  // The reason a connection closed comes as an event; connect() itself says only "closed".
  client.on('error', (error: Error) => {
    last = error;
  });
  try {
    await within(REDIS_PROBE_MS, async () => {
      await client.connect();
      await client.ping();
    });
    return undefined;
  } catch (error) {
    const said = error instanceof Error ? error : new Error(String(error));
    return last !== undefined && /^Connection is closed/.test(said.message) ? last : said;
  } finally {
    client.disconnect();
  }
}

type SentinelAnswer =
  | { kind: 'master'; auth: SentinelAuth }
  | { kind: 'no-master'; known: string[] }
  | { kind: 'failed'; error: Error };

/** Every sentinel asked at once: the first that names the master says how they are asked. */
async function askSentinels(target: SentinelTarget): Promise<Probed> {
  const answers = await Promise.all(target.sentinels.map((at) => askSentinel(target, at)));
  const named = answers.find((a) => a.kind === 'master');
  if (named !== undefined)
    return {
      target: { ...target, ...(named.auth !== 'none' && { sentinelAuth: named.auth }) },
    };
  const known = answers.flatMap((a) => (a.kind === 'no-master' ? a.known : []));
  if (answers.some((a) => a.kind === 'no-master'))
    return { problem: { kind: 'no-master', known: [...new Set(known)].join(', ') } };
  const errors = answers.flatMap((a) => (a.kind === 'failed' ? [a.error] : []));
  const telling = errors.find((e) => problemOf(e).kind !== 'no-answer') ?? errors[0];
  const problem = telling === undefined ? undefined : problemOf(telling);
  if (problem !== undefined && problem.kind !== 'no-answer') return { problem };
  return { problem: { kind: 'no-sentinel', reason: telling ? reasonText(telling) : 'none given' } };
}

/**
 * One sentinel: asked without a password first (many a Sentinel set asks for none), then, when it
 * asks for one, with the user and password, then with the password alone (`requirepass`).
 */
async function askSentinel(target: SentinelTarget, at: RedisEndpoint): Promise<SentinelAnswer> {
  const tries: SentinelAuth[] = target.password === undefined ? ['none'] : ['none', 'user'];
  if (target.password !== undefined && target.username !== undefined) tries.push('password');
  let answer: SentinelAnswer = { kind: 'failed', error: new Error('not asked') };
  for (const auth of tries) {
    answer = await sentinelSays(target, at, auth);
    if (answer.kind !== 'failed' || !/^(NOAUTH|WRONGPASS)/.test(answer.error.message))
      return answer;
  }
  return answer;
}

async function sentinelSays(
  target: SentinelTarget,
  at: RedisEndpoint,
  auth: SentinelAuth,
): Promise<SentinelAnswer> {
  const client = new Redis(sentinelProbeOptions(target, at, auth));
  let last: Error | undefined;
  client.on('error', (error: Error) => {
    last = error;
  });
  try {
    return await within(REDIS_PROBE_MS, async () => {
      await client.connect();
      const master = await client.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', target.master);
      if (Array.isArray(master)) return { kind: 'master', auth } as const;
      const masters = await client.call('SENTINEL', 'MASTERS');
      return { kind: 'no-master', known: namesOf(masters) } as const;
    });
  } catch (error) {
    const said = error instanceof Error ? error : new Error(String(error));
    const reason = last !== undefined && /^Connection is closed/.test(said.message) ? last : said;
    return { kind: 'failed', error: reason };
  } finally {
    client.disconnect();
  }
}

/** The names in `SENTINEL MASTERS`' answer: a list of flat field-value lists. */
function namesOf(masters: unknown): string[] {
  if (!Array.isArray(masters)) return [];
  return masters.flatMap((fields: unknown) => {
    if (!Array.isArray(fields)) return [];
    const at = fields.indexOf('name');
    const name: unknown = at < 0 ? undefined : fields[at + 1];
    return typeof name === 'string' ? [name] : [];
  });
}

/** TLS's words for a certificate it does not trust, or one made out for another host. */
const CERTIFICATE_CODES = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** What an error of a first connection means to a person. */
export function problemOf(error: Error): ProbeProblem {
  const reason = reasonText(error);
  const code = (error as { code?: unknown }).code;
  if (/^(WRONGPASS|NOAUTH|NOPERM)/.test(error.message)) return { kind: 'refused', reason };
  if (typeof code === 'string' && CERTIFICATE_CODES.has(code))
    return { kind: 'certificate', reason };
  if (/^All sentinels are unreachable/.test(error.message)) return { kind: 'no-sentinel', reason };
  return { kind: 'no-answer', reason };
}
