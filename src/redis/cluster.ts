/**
 * A Redis Cluster named by REDIS_URL (docs/operations.md "Redis Cluster"):
 * `redis+cluster://[user:pass@]host:port[,host:port…]` (./target.ts), any of its nodes: the client
 * learns the others from them. Each office's keys share one hash tag of their own there
 * (store/keys.ts, `KeyLayout`), so one office's keys and queues are in one slot and offices spread
 * over the shards.
 */
import { Cluster, type ClusterOptions, Redis } from 'ioredis';

import { type ClientNeeds, clientOptions, probeOptions } from './options.js';
import type { ClusterTarget } from './target.js';
import { within } from './within.js';
import { REDIS_ANSWER_MS, REDIS_CLUSTER_RETRY, REDIS_PROBE_MS } from '../policy.js';

/**
 * A client of the Cluster, not yet connected. Typed as a single server's client: the importer's
 * stores use only commands, scripts, pipelines and transactions, which a Cluster client routes by
 * their keys' slot (every key of one step shares its office's hash tag).
 */
export function clusterClient(target: ClusterTarget, needs: ClientNeeds = {}): Redis {
  const { lazyConnect, enableAutoPipelining: _batched, ...node } = clientOptions(target, needs);
  const options: ClusterOptions = {
    lazyConnect,
    // Never batched on a Cluster: ioredis 5 files a script's call under the node of its first
    // argument (the number of keys), so one batch mixes offices' slots and fails whole, and an
    // answer short of a call crashes the process (one client serves every office).
    enableAutoPipelining: false,
    redisOptions: { ...node, connectTimeout: REDIS_ANSWER_MS },
    slotsRefreshTimeout: REDIS_ANSWER_MS,
    // A master that fails is replaced by its replica within the Cluster's node timeout: commands
    // sent meanwhile wait and follow the new map rather than fail.
    retryDelayOnFailover: REDIS_CLUSTER_RETRY.delayMs,
    retryDelayOnClusterDown: REDIS_CLUSTER_RETRY.delayMs,
    retryDelayOnTryAgain: REDIS_CLUSTER_RETRY.delayMs,
    maxRedirections: needs.waitWhileAway
      ? REDIS_CLUSTER_RETRY.waitingRedirections
      : REDIS_CLUSTER_RETRY.redirections,
  };
  return new Cluster(endpoints(target), options) as unknown as Redis;
}

/**
 * BullMQ's connection on a Cluster: it cannot make a Cluster client from options, so the queues
 * and workers of a context share this one (their blocking reads each get a duplicate, which
 * BullMQ closes); whoever makes it closes it once they are closed.
 */
export function bullClusterClient(target: ClusterTarget): Cluster {
  return clusterClient(target, { waitWhileAway: true }) as unknown as Cluster;
}

/** Why a Cluster cannot be used, asked at start (probe.ts). */
export type ClusterProbe =
  /** It answers: its slot map read, a node PINGed. */
  | undefined
  /** Its nodes answer, but as single servers: no Cluster. */
  | { kind: 'not-cluster'; reason: string }
  /** The error of the node that said most (refused, a certificate, or nothing answering). */
  | { kind: 'failed'; error: Error; reached: boolean };

/** The Cluster asked once, each node within REDIS_ANSWER_MS. */
export async function probeCluster(target: ClusterTarget): Promise<ClusterProbe> {
  const client = new Cluster(endpoints(target), {
    lazyConnect: true,
    clusterRetryStrategy: () => null,
    slotsRefreshTimeout: REDIS_ANSWER_MS,
    redisOptions: probeOptions(target),
  });
  client.on('error', () => undefined); // what the nodes say is asked of each below
  try {
    await within(
      REDIS_PROBE_MS,
      async () => {
        await client.connect();
        await client.ping();
      },
      () => {
        client.disconnect();
      },
    );
    return undefined;
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    return await eachNodeSays(target, error);
  } finally {
    client.disconnect();
  }
}

/** Each node asked alone: a socket's failure, a refusal, a server without cluster support. */
async function eachNodeSays(target: ClusterTarget, said: Error): Promise<ClusterProbe> {
  const answers = await Promise.all(
    endpoints(target).map(async ({ host, port }) => {
      const node = new Redis({ ...probeOptions(target), host, port });
      // The socket's own failure (ECONNREFUSED…) says more than the client's "closed".
      let first: Error | undefined;
      node.on('error', (error: Error) => (first ??= error));
      try {
        await within(
          REDIS_PROBE_MS,
          async () => {
            await node.connect();
            await node.call('CLUSTER', 'INFO');
          },
          () => {
            node.disconnect();
          },
        );
        return { reached: true, error: said };
      } catch (error) {
        if (!(error instanceof Error)) throw error;
        return { reached: first === undefined && node.status === 'ready', error: first ?? error };
      } finally {
        node.disconnect();
      }
    }),
  );
  const reached = answers.filter((answer) => answer.reached);
  const plain = (answer: { error: Error }) =>
    /cluster support disabled/i.test(answer.error.message);
  const [first] = reached;
  if (first !== undefined && reached.every(plain))
    return { kind: 'not-cluster', reason: first.error.message };
  const telling = reached.find((answer) => !plain(answer)) ?? answers[0];
  return { kind: 'failed', error: telling?.error ?? said, reached: first !== undefined };
}

function endpoints(target: ClusterTarget): Array<{ host: string; port: number }> {
  return target.nodes.map(({ host, port }) => ({ host, port }));
}
