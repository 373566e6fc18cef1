/**
 * A Redis Cluster named by REDIS_URL (docs/design.md "Redis in production"):
 * `redis+cluster://[user:pass@]host:port[,host:port…]`, any of its nodes (the client learns the
 * others from them). Each office's keys share one hash tag of their own there (store/keys.ts,
 * `KeyLayout`), so one office's keys and queues are in one slot and offices spread over the shards.
 */
import { Cluster, type ClusterOptions, Redis, type RedisOptions } from 'ioredis';

import { REDIS_ANSWER_MS, REDIS_CLUSTER_RETRY, REDIS_COMMAND_RETRIES } from '../policy.js';

const SCHEME = 'redis+cluster://';

/** Where a Cluster is: some of its nodes, and the ACL user the client logs in as. */
export interface ClusterTarget {
  nodes: Array<{ host: string; port: number }>;
  username?: string;
  password?: string;
}

/** A REDIS_URL that is not one this module can read, and why (said with the setting). */
export class ClusterUrlError extends Error {
  override name = 'ClusterUrlError';
}

/** Whether REDIS_URL names a Cluster rather than one server. */
export function isClusterUrl(url: string): boolean {
  return url.trim().toLowerCase().startsWith(SCHEME);
}

/** The nodes and user of a `redis+cluster://` URL; ClusterUrlError when it is not one. */
export function parseClusterUrl(url: string): ClusterTarget {
  if (!isClusterUrl(url)) throw new ClusterUrlError(`must begin with ${SCHEME}`);
  let rest = url.trim().slice(SCHEME.length);
  if (rest.endsWith('/')) rest = rest.slice(0, -1);
  if (/[/?#]/.test(rest))
    throw new ClusterUrlError('must be host:port[,host:port…], with no path, query or fragment');
  const at = rest.lastIndexOf('@');
  const user = at < 0 ? undefined : rest.slice(0, at);
  const list = at < 0 ? rest : rest.slice(at + 1);
  const nodes = list.split(',').map((node) => nodeOf(node.trim()));
  return { nodes, ...credentialsOf(user) };
}

/** What is wrong with a `redis+cluster://` URL, for the settings' check; undefined: nothing. */
export function clusterUrlProblem(url: string): string | undefined {
  try {
    parseClusterUrl(url);
    return undefined;
  } catch (error) {
    if (error instanceof ClusterUrlError) return `a Cluster's URL ${error.message}`;
    throw error;
  }
}

function nodeOf(text: string): { host: string; port: number } {
  const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._-]+)(?::(\d{1,5}))?$/.exec(text);
  const port = Number(match?.[2] ?? '6379');
  if (match === null || port < 1 || port > 65535)
    throw new ClusterUrlError(`"${text}" is not a node (host:port)`);
  const host = match[1] ?? '';
  return { host: host.startsWith('[') ? host.slice(1, -1) : host, port };
}

function credentialsOf(user: string | undefined): { username?: string; password?: string } {
  if (user === undefined) return {};
  const colon = user.indexOf(':');
  const name = decodeURIComponent(colon < 0 ? user : user.slice(0, colon));
  const password = colon < 0 ? '' : decodeURIComponent(user.slice(colon + 1));
  return {
    ...(name !== '' && { username: name }),
    ...(password !== '' && { password }),
  };
}

/** The node list as messages and logs say it: never a password. */
export function clusterNodesText(url: string): string {
  try {
    return parseClusterUrl(url)
      .nodes.map(({ host, port }) => `${host.includes(':') ? `[${host}]` : host}:${port}`)
      .join(',');
  } catch (error) {
    if (error instanceof ClusterUrlError) return '(not a valid node list)';
    throw error;
  }
}

/** A Cluster URL fit for messages and logs: the password, if any, replaced. */
export function redactClusterUrl(url: string): string {
  let target: Partial<ClusterTarget> = {};
  try {
    target = parseClusterUrl(url);
  } catch (error) {
    if (!(error instanceof ClusterUrlError)) throw error;
  }
  const { username, password } = target;
  const user = username === undefined ? '' : encodeURIComponent(username);
  const login = password === undefined ? user : `${user}:***`;
  return `${SCHEME}${login === '' ? '' : `${login}@`}${clusterNodesText(url)}`;
}

export interface ClusterClientOptions {
  /** Commands wait while the Cluster is away instead of failing (connect.ts, `waitWhileAway`). */
  waitWhileAway?: boolean;
  /** ioredis' auto-pipelining (connect.ts, `batched`). */
  batched?: boolean;
}

/**
 * A client of the Cluster, not yet connected. Typed as a single server's client: the importer's
 * stores use only commands, scripts, pipelines and transactions, which a Cluster client routes by
 * their keys' slot (every key of one step shares its office's hash tag).
 */
export function clusterClient(url: string, options: ClusterClientOptions = {}): Redis {
  const { nodes, username, password } = parseClusterUrl(url);
  const clusterOptions: ClusterOptions = {
    lazyConnect: true,
    enableAutoPipelining: options.batched ?? false,
    redisOptions: {
      ...(username !== undefined && { username }),
      ...(password !== undefined && { password }),
      connectTimeout: REDIS_ANSWER_MS,
      maxRetriesPerRequest: options.waitWhileAway ? null : REDIS_COMMAND_RETRIES,
    },
    slotsRefreshTimeout: REDIS_ANSWER_MS,
    // A master that fails is replaced by its replica within the Cluster's node timeout: commands
    // sent meanwhile wait and follow the new map rather than fail.
    retryDelayOnFailover: REDIS_CLUSTER_RETRY.delayMs,
    retryDelayOnClusterDown: REDIS_CLUSTER_RETRY.delayMs,
    retryDelayOnTryAgain: REDIS_CLUSTER_RETRY.delayMs,
    maxRedirections: options.waitWhileAway ? REDIS_CLUSTER_RETRY.waitingRedirections : 16,
  };
  return new Cluster(nodes, clusterOptions) as unknown as Redis;
}

/**
 * BullMQ's connection on a Cluster: it cannot make a Cluster client from options, so the queues
 * and workers of a context share this one (their blocking reads each get a duplicate, which
 * BullMQ closes); whoever makes it closes it once they are closed.
 */
export function bullClusterClient(url: string): Cluster {
  return clusterClient(url, { waitWhileAway: true }) as unknown as Cluster;
}

/** Why a Cluster cannot be used now: none of its nodes answers, or they are no Cluster. */
export interface ClusterProblem {
  kind: 'away' | 'not-cluster';
  /** What the nodes said (a socket's error, Redis's refusal). */
  problem: string;
}

/**
 * Whether the Cluster answers now, each node asked once and within REDIS_ANSWER_MS: undefined
 * when it does (its slot map read), else why not, for one line at start.
 */
export async function clusterProblem(url: string): Promise<ClusterProblem | undefined> {
  const { nodes, username, password } = parseClusterUrl(url);
  const login = {
    ...(username !== undefined && { username }),
    ...(password !== undefined && { password }),
  };
  const once = {
    connectTimeout: REDIS_ANSWER_MS,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  };
  const client = new Cluster(nodes, {
    lazyConnect: true,
    clusterRetryStrategy: () => null,
    slotsRefreshTimeout: REDIS_ANSWER_MS,
    redisOptions: { ...login, ...once },
  });
  client.on('error', () => undefined); // what the nodes say is asked of each below
  try {
    await client.connect();
    await client.ping();
    return undefined;
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    return await eachNodeSays(nodes, { ...login, ...once }, error.message);
  } finally {
    client.disconnect();
  }
}

/** Each node asked alone: a socket's failure, a server without cluster support, or else `said`. */
async function eachNodeSays(
  nodes: ClusterTarget['nodes'],
  options: RedisOptions,
  said: string,
): Promise<ClusterProblem> {
  const answers = await Promise.all(
    nodes.map(async ({ host, port }) => {
      const node = new Redis({ ...options, host, port, lazyConnect: true });
      // The socket's own failure (ECONNREFUSED…) says more than the client's "closed".
      let first: Error | undefined;
      node.on('error', (error: Error) => (first ??= error));
      try {
        await node.connect();
        await node.call('CLUSTER', 'INFO');
        return { reached: true, problem: said };
      } catch (error) {
        if (!(error instanceof Error)) throw error;
        const reached = first === undefined && node.status === 'ready';
        return { reached, problem: (first ?? error).message };
      } finally {
        node.disconnect();
      }
    }),
  );
  const reached = answers.filter((answer) => answer.reached);
  if (reached.length === 0) return { kind: 'away', problem: answers[0]?.problem ?? said };
  const plain = (answer: { problem: string }) => /cluster support disabled/i.test(answer.problem);
  if (reached.every(plain)) return { kind: 'not-cluster', problem: reached[0]?.problem ?? said };
  return { kind: 'away', problem: said };
}
