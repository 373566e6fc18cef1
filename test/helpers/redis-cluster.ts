/**
 * A Redis Cluster of our own for one test file: `redis-server --cluster-enabled yes` on free ports
 * (three masters, and a replica each when asked), joined by `redis-cli --cluster create`, its
 * processes killed and its folders removed afterwards. Used where the importer must run on a
 * Cluster (docs/operations.md "Redis Cluster").
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { Redis } from 'ioredis';

import { freePort } from '../../src/redis/local-server.js';
import { eventually } from './eventually.js';
import { tempDir } from './files.js';

const run = promisify(execFile);

/** One node of the test's Cluster. */
export interface ClusterNode {
  port: number;
  process: ChildProcess;
  /** A plain client of this node alone (no redirections followed). */
  client: Redis;
}

export interface TestCluster {
  /** `redis+cluster://127.0.0.1:<port>,…`: every node, as REDIS_URL names a Cluster. */
  url: string;
  nodes: ClusterNode[];
  /** The node serving `slot` now (a master). */
  masterOf(slot: number): Promise<ClusterNode>;
  /** The slot of a key (CLUSTER KEYSLOT). */
  slotOf(key: string): Promise<number>;
  /** A replica of `master` (a Cluster started with replicas). */
  replicaOf(master: ClusterNode): Promise<ClusterNode>;
  stop(): Promise<void>;
}

/** Three masters (and `replicas` replicas of each) on free ports, answering once all agree. */
export async function startRedisCluster(options: { replicas?: number } = {}): Promise<TestCluster> {
  const replicas = options.replicas ?? 0;
  const dir = await tempDir('redis-cluster-');
  const nodes: ClusterNode[] = [];
  const stop = async () => {
    await Promise.all(nodes.map((node) => stopNode(node)));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < 3 * (1 + replicas); i++) nodes.push(await startNode(dir));
    const addresses = nodes.map((node) => `127.0.0.1:${node.port}`);
    await run(
      'redis-cli',
      [
        '--cluster',
        'create',
        ...addresses,
        '--cluster-replicas',
        String(replicas),
        '--cluster-yes',
      ],
      { timeout: 30_000 },
    );
    await eventually(
      async () => ((await everyNodeAgrees(nodes)) ? true : undefined),
      () => 'the Cluster did not come to cluster_state:ok on every node',
    );
  } catch (error) {
    await stop();
    throw error;
  }
  const first = nodes[0] as ClusterNode;
  return {
    url: `redis+cluster://${nodes.map((node) => `127.0.0.1:${node.port}`).join(',')}`,
    nodes,
    slotOf: async (key) => Number(await first.client.call('CLUSTER', 'KEYSLOT', key)),
    masterOf: async (slot) => {
      const ranges = (await first.client.call('CLUSTER', 'SLOTS')) as Array<
        [number, number, [string, number]]
      >;
      const range = ranges.find(([from, to]) => slot >= from && slot <= to);
      const node = nodes.find((n) => n.port === range?.[2][1]);
      if (node === undefined) throw new Error(`no master serves slot ${slot}`);
      return node;
    },
    replicaOf: async (master) => {
      const id = String(await master.client.call('CLUSTER', 'MYID'));
      for (const node of nodes) {
        const [role, host, port] = (await node.client.call('ROLE')) as [string, string, number];
        if (role === 'slave' && port === master.port && host === '127.0.0.1') return node;
      }
      throw new Error(`no replica of ${master.port} (${id})`);
    },
    stop,
  };
}

async function startNode(dir: string): Promise<ClusterNode> {
  const port = await freePort();
  // Its bus on a free port of its own: port + 10000, Redis's default, may be anyone's.
  const busPort = await freePort();
  const home = join(dir, String(port));
  await mkdir(home, { recursive: true });
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--cluster-enabled',
      'yes',
      '--cluster-port',
      String(busPort),
      '--cluster-config-file',
      join(home, 'nodes.conf'),
      '--cluster-node-timeout',
      '2000',
      '--dir',
      home,
      '--save',
      '',
      '--appendonly',
      'no',
      '--maxmemory-policy',
      'noeviction',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-2000);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const client = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 1 });
  client.on('error', () => undefined); // asked again below until it answers
  const node = { port, process: child, client };
  try {
    await eventually(
      async () => (child.exitCode === null ? await pinged(client) : 'exited'),
      () => `redis-server on port ${port} did not answer`,
      10_000,
    ).then((answer) => {
      if (answer === 'exited')
        throw new Error(`redis-server on port ${port} exited at start: ${output}`);
    });
  } catch (error) {
    await stopNode(node);
    throw error;
  }
  return node;
}

async function pinged(client: Redis): Promise<'PONG' | undefined> {
  try {
    if (client.status === 'wait' || client.status === 'end') await client.connect();
    await client.ping();
    return 'PONG';
  } catch (error) {
    if (error instanceof Error) return undefined;
    throw error;
  }
}

async function everyNodeAgrees(nodes: readonly ClusterNode[]): Promise<boolean> {
  for (const node of nodes) {
    const info = String(await node.client.call('CLUSTER', 'INFO'));
    if (!info.includes('cluster_state:ok')) return false;
  }
  return true;
}

/** SIGKILL: a test's node has nothing to keep; its exit is waited for. */
async function stopNode(node: ClusterNode): Promise<void> {
  node.client.disconnect();
  const { process: child } = node;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/** The keys a node holds under `pattern` (its own slots only: SCAN is per node). */
export async function keysOn(node: ClusterNode, pattern: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await node.client.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    found.push(...keys);
  } while (cursor !== '0');
  return found;
}
