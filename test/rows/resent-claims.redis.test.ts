/**
 * A Redis client sends again, after a reconnection, the commands whose replies a restart lost
 * (ioredis' autoResendUnfulfilledCommands). A claim that Redis did carry out then comes back as
 * "taken": it must still be recognised as the sender's own.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Keys } from '../../src/store/keys.js';
import { SheetStore } from '../../src/store/sheet-store.js';
import { type TestRedis, useTestRedis } from '../helpers/redis.js';

let redis: TestRedis;
let client: Redis;
let store: SheetStore;
beforeAll(async () => {
  redis = await useTestRedis();
  client = new Redis(redis.url);
  store = new SheetStore(client, new Keys(`{${redis.prefix}}`));
});
afterAll(async () => {
  client.disconnect();
  await redis.cleanup();
});

describe('a create claim sent twice by the same attempt', () => {
  it('is that attempt’s own the second time too', async () => {
    expect(await store.claimCreate('resent', 7, '1.aaaaaa')).toEqual({ kind: 'claimed' });
    expect(await store.claimCreate('resent', 7, '1.aaaaaa')).toEqual({ kind: 'claimed' });
  });

  it('is still "sent" for any other attempt', async () => {
    expect(await store.claimCreate('other', 3, '1.bbbbbb')).toEqual({ kind: 'claimed' });
    expect(await store.claimCreate('other', 3, '2.cccccc')).toEqual({ kind: 'sent' });
  });
});
