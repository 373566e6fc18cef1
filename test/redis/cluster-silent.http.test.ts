/**
 * A Redis Cluster named by nodes that take the connection and never answer (a firewall that
 * swallows, a hung host): the check at start still ends within a few seconds with its problem,
 * as for a single server or a Sentinel set (docs/operations.md "Redis Cluster").
 */
import { createServer, type Server, type Socket } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { probeRedis } from '../../src/redis/probe.js';
import { parseRedisUrl } from '../../src/redis/target.js';
import { REDIS_PROBE_MS } from '../../src/policy.js';

let server: Server;
const sockets = new Set<Socket>();

beforeAll(async () => {
  server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) =>
    server.close(() => {
      resolve();
    }),
  );
});

describe('a Redis Cluster whose nodes never answer', () => {
  it('is said at start as a Cluster no node of which answers, within the probe time', async () => {
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    const target = parseRedisUrl(`redis+cluster://127.0.0.1:${address.port}`);
    const hung = new Promise<'hung'>((resolve) => {
      setTimeout(() => {
        resolve('hung');
      }, 6 * REDIS_PROBE_MS).unref();
    });
    const probed = await Promise.race([probeRedis(target), hung]);
    expect(probed).toMatchObject({ problem: { kind: 'no-node' } });
  }, 60_000);
});
