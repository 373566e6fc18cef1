/**
 * A Redis Cluster failed over in the middle of an import (docs/design.md "Redis in production"):
 * three masters with a replica each (test/helpers/redis-cluster.ts), `import` in process with
 * REDIS_URL=redis+cluster://…; once some rows are created, the replica of the master holding the
 * office's slot takes over (CLUSTER FAILOVER). The import goes on within 30 s without a restart
 * and every row is created exactly once, counted in the sandbox over HTTP.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { apiIdentity, connectionId } from '../../src/connections/connection.js';
import { type CliExit, InProcessCli } from '../helpers/cli.js';
import { eventually } from '../helpers/eventually.js';
import { tempDir } from '../helpers/files.js';
import { startRedisCluster, type TestCluster } from '../helpers/redis-cluster.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

const ROWS = 150;

let cluster: TestCluster;
let sandbox: TestSandbox;
const started: Array<() => Promise<void>> = [];
beforeAll(async () => {
  cluster = await startRedisCluster({ replicas: 1 });
  started.push(() => cluster.stop());
  // Each create takes a moment: the import is still running when the failover comes.
  sandbox = await testSandbox({
    tokens: [{ token: 'token-gent', org: 'gent' }],
    faults: { latencyMs: 40 },
  });
  started.push(() => sandbox.close());
}, 60_000);
afterAll(async () => {
  for (const stop of started.reverse()) await stop();
});

/** The command's end, or an error naming what it said if it has not ended within `ms`. */
async function endsWithin(cli: InProcessCli, ms: number): Promise<CliExit> {
  const ended = { yes: false };
  void cli.finished.then(() => (ended.yes = true));
  await eventually(
    () => ended.yes || undefined,
    () => `the import did not end:\n${cli.stderr}`,
    ms,
  );
  return cli.finished;
}

const orders = async () => (await sandbox.api.listOrders()).length;

describe('a Redis Cluster failed over in the middle of an import', () => {
  it('loses no row, creates none twice, and the import goes on within 30 s', async () => {
    const name = `test-${randomUUID()}`;
    const tag = `{${name}:${connectionId(apiIdentity(sandbox.url), 'token-gent')}}`;
    const dir = await tempDir('cluster-failover-');
    const rows = Array.from({ length: ROWS }, (_, i) => sheetRow(500 + i));
    const sheet = await writeCsvSheet(dir, 'orders.csv', rows);
    const cli = new InProcessCli(['import', sheet], {
      REDIS_URL: cluster.url,
      QUEUE_PREFIX: `{${name}}`,
      API_BASE_URL: sandbox.url,
      API_TOKEN: 'token-gent',
      DATA_DIR: join(dir, 'data'),
      RETRY_DELAY_MS: '50',
      JOB_LOCK_MS: '5000',
    });
    try {
      await eventually(
        async () => ((await orders()) >= 30 ? true : undefined),
        () => `not 30 orders:\n${cli.stderr}`,
        60_000,
      );
      const master = await cluster.masterOf(await cluster.slotOf(tag));
      const replica = await cluster.replicaOf(master);
      await replica.client.call('CLUSTER', 'FAILOVER');
      await eventually(
        async () => ((await replica.client.call('ROLE')) as string[])[0] === 'master' || undefined,
        () => 'the replica did not take over',
      );
      const atFailover = await orders();
      expect(atFailover).toBeLessThan(ROWS);
      // The work goes on: more orders within 30 s of the new master, no restart.
      await eventually(
        async () => ((await orders()) > atFailover ? true : undefined),
        () => `no order created within 30 s of the failover:\n${cli.stderr}`,
        30_000,
      );
      const finished = await endsWithin(cli, 90_000);
      expect(finished.code, finished.stderr).toBe(0);
    } finally {
      cli.stop('SIGTERM');
      await cli.finished;
    }
    const contacts = (await sandbox.api.listOrders()).map((o) => o.contact_name).sort();
    expect(contacts).toEqual(rows.map((_, i) => `Contact ${500 + i}`).sort());
    for (const node of cluster.nodes.filter(
      (n) => n.process.exitCode === null && n.process.signalCode === null,
    )) {
      const pipeline = node.client.pipeline();
      const [, keys] = await node.client.scan('0', 'MATCH', `*${name}*`, 'COUNT', 100_000);
      for (const key of keys) pipeline.unlink(key);
      await pipeline.exec();
    }
  }, 180_000);
});
