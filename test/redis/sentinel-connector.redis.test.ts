/**
 * A client of a Sentinel set told to reconnect while it is still asking the sentinels where the
 * master is (what ioredis' failover detector does when `+switch-master` comes during a
 * reconnection, and BullMQ's watchdog of a blocking command): ioredis alone ends such a client
 * for good, and the work it served stands still until a restart. src/redis/sentinel-connector.ts
 * makes it reconnect; a client closed on purpose still ends.
 */
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';

import { clientOptions } from '../../src/redis/options.js';
import { parseRedisUrl } from '../../src/redis/target.js';
import { eventually } from '../helpers/eventually.js';
import { stopAll } from '../helpers/redis-servers.js';
import { type SentinelSet, startSentinelSet } from '../helpers/sentinel.js';

const clients: Redis[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.disconnect();
  await stopAll();
});

/** A client of the set, connecting while its one sentinel is frozen: it hangs asking it. */
async function askingFrozenSentinel(set: SentinelSet): Promise<Redis> {
  const [sentinel] = set.sentinels;
  if (sentinel === undefined) throw new Error('a set without sentinels');
  sentinel.process.kill('SIGSTOP');
  const client = new Redis(clientOptions(parseRedisUrl(set.url), { waitWhileAway: true }));
  clients.push(client);
  client.on('error', () => undefined); // the test looks at its status
  void client.connect().catch(() => undefined);
  expect(client.status).toBe('connecting');
  return client;
}

describe('a client of a Sentinel set, disconnected while it asks the sentinels', () => {
  it('reconnects when told to (disconnect(true)), instead of ending for good', async () => {
    const set = await startSentinelSet({ sentinels: 1, replicas: 0 });
    const client = await askingFrozenSentinel(set);
    client.disconnect(true);
    set.sentinels[0]?.process.kill('SIGCONT');
    await eventually(
      () => (client.status === 'ready' ? true : undefined),
      () => `the client is ${client.status}, not ready again`,
      20_000,
    );
    expect(await client.ping()).toBe('PONG');
  }, 40_000);

  it('ends when closed on purpose (disconnect()), asking no more', async () => {
    const set = await startSentinelSet({ sentinels: 1, replicas: 0 });
    const client = await askingFrozenSentinel(set);
    client.disconnect();
    set.sentinels[0]?.process.kill('SIGCONT');
    await eventually(
      () => (client.status === 'end' ? true : undefined),
      () => `the client is ${client.status}, not ended`,
      20_000,
    );
    await expect(client.ping()).rejects.toThrow(/Connection is closed/);
  }, 40_000);
});
