import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';

import { describe, expect, it } from 'vitest';

import { freePort } from '../../src/redis/local-server.js';

/** The kernel's range of ports for outgoing connections (Linux's own default when unreadable). */
async function ephemeralLow(): Promise<number> {
  const text = await readFile('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').catch(
    () => '32768 60999',
  );
  return Number(text.trim().split(/\s+/)[0]);
}

describe('freePort', () => {
  // A port from the kernel's ephemeral range can be given to any outgoing connection (a Redis
  // client, an HTTP request) between the moment it is found free and the moment it is bound: on
  // a busy machine the sandbox then failed with EADDRINUSE.
  it('gives a port below the range the kernel hands to outgoing connections', async () => {
    const low = await ephemeralLow();
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(1024);
      expect(port).toBeLessThan(low);
    }
  });

  it('gives a port that can be listened on', async () => {
    const port = await freePort();
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    await new Promise<void>((resolve) =>
      server.close(() => {
        resolve();
      }),
    );
  });

  it('passes over a port in use', async () => {
    const low = await ephemeralLow();
    const taken = createServer();
    const busy = await freePort();
    await new Promise<void>((resolve) => taken.listen(busy, '127.0.0.1', resolve));
    try {
      // The first pick is the port in use, the next one is not.
      const picks = [(busy - 10_000 + 0.5) / (low - 10_000), 0.5];
      const port = await freePort(() => picks.shift() ?? 0.5);
      expect(port).not.toBe(busy);
      expect(port).toBe(10_000 + Math.floor(0.5 * (low - 10_000)));
    } finally {
      await new Promise<void>((resolve) =>
        taken.close(() => {
          resolve();
        }),
      );
    }
  });
});
