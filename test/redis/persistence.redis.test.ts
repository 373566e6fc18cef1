/** What Redis says of its persistence (redis/persistence.ts), asked of real redis-servers. */
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';

import { startLocalRedis } from '../../src/redis/local-server.js';
import { persistenceOf, persistenceWarning } from '../../src/redis/persistence.js';
import { tempDir } from '../helpers/files.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function asked(appendOnly: boolean): Promise<Awaited<ReturnType<typeof persistenceOf>>> {
  const server = await startLocalRedis({ dir: await tempDir('persistence-'), appendOnly });
  cleanups.push(() => server.stop());
  const client = new Redis(server.url);
  cleanups.push(async () => {
    client.disconnect();
    return Promise.resolve();
  });
  return persistenceOf(client);
}

describe('persistenceOf', () => {
  it('knows a redis-server with AOF, and has nothing to say of it', async () => {
    const persistence = await asked(true);
    expect(persistence).toEqual({ kind: 'aof' });
    expect(persistenceWarning(persistence, 'Redis')).toBeUndefined();
  });

  it('knows one that keeps nothing on disk (--save "" --appendonly no)', async () => {
    const persistence = await asked(false);
    expect(persistence).toEqual({ kind: 'none' });
    expect(persistenceWarning(persistence, 'Redis')).toMatch(
      /^Redis keeps nothing on disk .*`order-importer ledger rebuild`.*AOF/,
    );
  });
});
