/**
 * Every key one of our Lua scripts touches is one it was given (KEYS), never one it builds: a
 * Redis Cluster routes a script by its declared keys alone (docs/operations.md "Redis Cluster").
 * The ledger's shards are the scripts that grow (store/ledger-scripts.ts): two ledgers of one
 * connection (two processes) claim, write, release and look up enough keys for its shards to
 * split many times while each one's idea of the shape goes stale, on a private redis-server
 * whose MONITOR shows what each script did; and every key is still claimed once.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type LocalRedis, startLocalRedis } from '../../src/redis/local-server.js';
import { Keys } from '../../src/store/keys.js';
import { Ledger } from '../../src/store/ledger.js';
import { RowProgress, sentEntry } from '../../src/store/row-progress.js';
import { type MonitoredCommand, monitorRedis, scriptCalls } from '../helpers/redis-monitor.js';

let dir: string;
let server: LocalRedis;
let client: Redis;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'declared-keys-'));
  server = await startLocalRedis({ dir });
  client = new Redis(server.url);
});
afterAll(async () => {
  client.disconnect();
  await server.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('our Lua scripts', () => {
  it('touch only the keys they declare, while the ledger splits under two processes', async () => {
    const keys = new Keys('{declared}');
    const options = { connectionId: 'c1', ledgerDays: 400, now: Date.now };
    const first = new Ledger(client, keys, options);
    const other = new Redis(server.url);
    const second = new Ledger(other, keys, options);
    const commands: MonitoredCommand[] = [];
    const monitor = await monitorRedis(server.url, (command) => commands.push(command));
    try {
      const rows = Array.from({ length: 600 }, (_, i) => i + 1);
      const claims = await Promise.all(
        rows.map((row) =>
          (row % 2 === 0 ? first : second).claim(`k${row % 400}`, { sheetId: 'S', row }),
        ),
      );
      // 400 keys: each claimed by one row; the 200 rows that came second see it busy.
      expect(claims.filter((claim) => claim.kind === 'mine')).toHaveLength(400);
      await Promise.all(
        rows
          .filter((row) => row <= 400)
          .map((row) =>
            (row % 3 === 0 ? first : second).confirm(`k${row % 400}`, { sheetId: 'S', row }, row),
          ),
      );
      const found = await Promise.all(
        rows.slice(0, 400).map((row) => first.lookup(`k${row % 400}`)),
      );
      expect(found.filter((entry) => entry?.state === 'created')).toHaveLength(400);
      expect(await second.lookup('never')).toBeUndefined();
      await second.release('k7', { sheetId: 'S', row: 7 });

      // The row's own steps carry the ledger's part (store/row-scripts.ts).
      const progress = new RowProgress(client, keys, first, undefined);
      for (let row = 1000; row < 1100; row++) {
        const me = { sheetId: 'T', row };
        const claim = sentEntry(`1.${row}`, new Date().toISOString());
        expect(await progress.begin(me, { key: `t${row}`, claim })).toEqual({ kind: 'claimed' });
        await progress.answered(me, { orderId: row, inspectionIds: [] }, `t${row}`);
      }
      expect((await first.lookup('t1050'))?.orderId).toBe(1050);
    } finally {
      monitor.stop();
      other.disconnect();
    }
    const calls = scriptCalls(commands);
    expect(calls.length).toBeGreaterThan(1000);
    // Shards split: the ledger grew past its first shard.
    expect(await client.exists(`${keys.ledgerOf('c1')}:8`)).toBe(1);
    const undeclared = calls.flatMap(({ declared, touched }) =>
      touched.filter((key) => !declared.includes(key)),
    );
    expect(undeclared).toEqual([]);
  });
});
