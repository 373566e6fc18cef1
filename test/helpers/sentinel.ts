/**
 * A Sentinel set of a test's own: a master, its replicas and three sentinels, each a
 * `redis-server` on a free port in a temporary folder (./redis-servers.ts), failed over quickly
 * (a master is down after 1 s). `stop()` kills them all and removes their folders.
 */
import { Redis } from 'ioredis';

import { eventually } from './eventually.js';
import { type RedisProcess, startRedisServer } from './redis-servers.js';

export interface SentinelSetOptions {
  /** The master's name, as `sentinel monitor` gives it. @defaultValue `orders` */
  name?: string;
  /** An ACL user the data nodes require (the default user off); the sentinels use it too. */
  user?: { name: string; password: string };
  /** A password the sentinels themselves require (`requirepass`). */
  sentinelPassword?: string;
  /** @defaultValue 3 */
  sentinels?: number;
  /** @defaultValue 1 */
  replicas?: number;
}

export interface SentinelSet {
  name: string;
  /** The master first (as started), then the replicas. */
  nodes: RedisProcess[];
  sentinels: RedisProcess[];
  /** REDIS_URL for it: `redis+sentinel://[user:password@]127.0.0.1:p1,…/<name>`. */
  url: string;
  /** The port of the master the sentinels name now. */
  masterPort(): Promise<number>;
  /** Kills the master (SIGKILL, or the signal given) and resolves with its port. */
  killMaster(signal?: NodeJS.Signals): Promise<number>;
  /** Resolves with the new master's port once the sentinels name another than `old`, and it is one. */
  promoted(old: number, timeoutMs?: number): Promise<number>;
  /** A client of a data node, with the set's user. */
  client(port: number): Redis;
  stop(): Promise<void>;
}

export async function startSentinelSet(options: SentinelSetOptions = {}): Promise<SentinelSet> {
  const name = options.name ?? 'orders';
  const { user } = options;
  const auth = user
    ? [
        'user default off',
        `user ${user.name} on >${user.password} ~* &* +@all`,
        `masteruser ${user.name}`,
        `masterauth ${user.password}`,
      ]
    : [];
  const nodes: RedisProcess[] = [];
  const sentinels: RedisProcess[] = [];
  const stop = async () => {
    await Promise.all([...sentinels, ...nodes].map((server) => server.stop()));
  };
  try {
    const master = await startRedisServer({ conf: auth });
    nodes.push(master);
    for (let n = 0; n < (options.replicas ?? 1); n++)
      nodes.push(await startRedisServer({ conf: [...auth, `replicaof 127.0.0.1 ${master.port}`] }));
    const watch = [
      `sentinel monitor ${name} 127.0.0.1 ${master.port} 2`,
      `sentinel down-after-milliseconds ${name} 1000`,
      `sentinel failover-timeout ${name} 10000`,
      `sentinel parallel-syncs ${name} 1`,
      ...(user
        ? [`sentinel auth-user ${name} ${user.name}`, `sentinel auth-pass ${name} ${user.password}`]
        : []),
      ...(options.sentinelPassword
        ? [
            `requirepass ${options.sentinelPassword}`,
            `sentinel sentinel-pass ${options.sentinelPassword}`,
          ]
        : []),
    ];
    for (let n = 0; n < (options.sentinels ?? 3); n++)
      sentinels.push(await startRedisServer({ sentinel: true, conf: watch }));
  } catch (error) {
    await stop();
    throw error;
  }
  const set: SentinelSet = {
    name,
    nodes,
    sentinels,
    url: `redis+sentinel://${user ? `${user.name}:${user.password}@` : ''}${sentinels
      .map((s) => `127.0.0.1:${s.port}`)
      .join(',')}/${name}`,
    masterPort: () => askSentinels(set, options, async (s) => masterOf(s, name)),
    killMaster: async (signal = 'SIGKILL') => {
      const port = await set.masterPort();
      const node = nodes.find((n) => n.port === port);
      if (node === undefined) throw new Error(`no node of this set on port ${port}`);
      if (signal === 'SIGKILL') await node.kill();
      else node.process.kill(signal);
      return port;
    },
    promoted: (old, timeoutMs = 30_000) =>
      eventually(
        async () => {
          const port = await set.masterPort().catch(() => undefined);
          if (port === undefined || port === old) return undefined;
          const role = await roleOf(set, port);
          return role === 'master' ? port : undefined;
        },
        () => `the sentinels name no new master in place of ${old}`,
        timeoutMs,
      ),
    client: (port) =>
      new Redis({
        port,
        host: '127.0.0.1',
        ...(user && { username: user.name, password: user.password }),
        maxRetriesPerRequest: 1,
        lazyConnect: true,
        retryStrategy: () => null,
      }),
    stop,
  };
  try {
    await ready(set, options);
  } catch (error) {
    await stop();
    throw error;
  }
  return set;
}

/** Every sentinel knows the others, the replicas, and a master it can fail over. */
async function ready(set: SentinelSet, options: SentinelSetOptions): Promise<void> {
  const others = set.sentinels.length - 1;
  const replicas = set.nodes.length - 1;
  let last = '';
  await eventually(
    async () => {
      for (const sentinel of set.sentinels) {
        const fields: Record<string, string> = await withSentinel(sentinel, options, async (s) => {
          const master = fieldsOf(await s.call('SENTINEL', 'MASTER', set.name));
          const links = await Promise.all(set.nodes.slice(1).map((n) => linkOf(set, n.port)));
          return { ...master, links: links.join(',') };
        });
        last = JSON.stringify(fields);
        if (
          Number(fields['num-other-sentinels']) < others ||
          Number(fields['num-slaves']) < replicas ||
          fields.flags !== 'master' ||
          (fields.links ?? '').split(',').some((link) => link !== 'up' && replicas > 0)
        )
          return undefined;
      }
      return true;
    },
    () => `the Sentinel set is not ready: ${last}`,
    30_000,
  );
}

async function masterOf(sentinel: Redis, name: string): Promise<number> {
  const answer = await sentinel.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', name);
  if (!Array.isArray(answer)) throw new Error(`the sentinels know no master "${name}"`);
  return Number(answer[1]);
}

/** The first sentinel still running that answers. */
async function askSentinels<T>(
  set: SentinelSet,
  options: SentinelSetOptions,
  ask: (sentinel: Redis) => Promise<T>,
): Promise<T> {
  let failure: unknown = new Error('no sentinel runs');
  for (const sentinel of set.sentinels.filter((s) => !s.ended)) {
    try {
      return await withSentinel(sentinel, options, ask);
    } catch (error) {
      failure = error;
    }
  }
  throw failure;
}

async function withSentinel<T>(
  sentinel: RedisProcess,
  options: SentinelSetOptions,
  ask: (client: Redis) => Promise<T>,
): Promise<T> {
  const client = new Redis({
    port: sentinel.port,
    host: '127.0.0.1',
    ...(options.sentinelPassword && { password: options.sentinelPassword }),
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 1000,
    commandTimeout: 1000,
  });
  client.on('error', () => undefined); // the command's own failure says it
  try {
    await client.connect();
    return await ask(client);
  } finally {
    client.disconnect();
  }
}

async function roleOf(set: SentinelSet, port: number): Promise<string | undefined> {
  const client = set.client(port);
  client.on('error', () => undefined);
  try {
    await client.connect();
    const [role] = (await client.role()) as [string];
    return role;
  } catch (error) {
    if (error instanceof Error) return undefined;
    throw error;
  } finally {
    client.disconnect();
  }
}

/** A replica's link to its master: `up` once it has synced. */
async function linkOf(set: SentinelSet, port: number): Promise<string> {
  const client = set.client(port);
  client.on('error', () => undefined);
  try {
    await client.connect();
    const info = await client.info('replication');
    return /master_link_status:(\w+)/.exec(info)?.[1] ?? 'none';
  } finally {
    client.disconnect();
  }
}

function fieldsOf(flat: unknown): Record<string, string> {
  const fields: Record<string, string> = {};
  if (!Array.isArray(flat)) return fields;
  for (let i = 0; i + 1 < flat.length; i += 2) fields[String(flat[i])] = String(flat[i + 1]);
  return fields;
}
