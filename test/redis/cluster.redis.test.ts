/**
 * The importer on a Redis Cluster (docs/design.md "Redis in production"; docs/operations.md
 * "Redis Cluster"): three masters of our own (test/helpers/redis-cluster.ts), two offices in one
 * configuration, `watch` in process with REDIS_URL=redis+cluster://…. Each office's keys share a
 * hash tag of its own, so the two offices land on different shards; every row is created once,
 * counted in the sandbox over HTTP; every key one of our scripts touches is one it declared
 * (MONITOR on every master); a node list that does not answer is one line and exit 1.
 */
import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { apiIdentity, connectionId } from '../../src/connections/connection.js';
import { freePort } from '../../src/redis/local-server.js';
import type { Summary } from '../../src/report/report.js';
import { ApiClient } from '../helpers/api.js';
import { InProcessCli, runInProcess } from '../helpers/cli.js';
import { eventually } from '../helpers/eventually.js';
import { put, tempDir } from '../helpers/files.js';
import { type MonitoredCommand, monitorRedis, scriptCalls } from '../helpers/redis-monitor.js';
import { keysOn, startRedisCluster, type TestCluster } from '../helpers/redis-cluster.js';
import { useTestRedis } from '../helpers/redis.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

let cluster: TestCluster;
let sandbox: TestSandbox;
/** What afterAll stops, in the reverse order (what beforeAll started before it failed). */
const started: Array<() => Promise<void>> = [];
beforeAll(async () => {
  cluster = await startRedisCluster();
  started.push(() => cluster.stop());
  sandbox = await testSandbox({
    tokens: [
      { token: 'token-gent', org: 'gent' },
      { token: 'token-brugge', org: 'brugge' },
    ],
  });
  started.push(() => sandbox.close());
}, 60_000);
afterAll(async () => {
  for (const stop of started.reverse()) await stop();
});

/** The hash tag of an office's keys on a Cluster: the prefix's name and the office's id. */
function officeTag(prefixName: string, token: string): string {
  return `{${prefixName}:${connectionId(apiIdentity(sandbox.url), token)}}`;
}

/**
 * A prefix name whose two office tags are served by different masters: the test shows offices
 * spread over the shards, whatever ids this run's sandbox port gives them.
 */
async function prefixOnTwoShards(): Promise<string> {
  for (let n = 0; n < 100; n++) {
    const name = `test-${randomUUID()}`;
    const gent = await cluster.masterOf(await cluster.slotOf(officeTag(name, 'token-gent')));
    const brugge = await cluster.masterOf(await cluster.slotOf(officeTag(name, 'token-brugge')));
    if (gent.port !== brugge.port) return name;
  }
  throw new Error('no prefix put the two offices on two shards');
}

async function installation(prefixName: string) {
  const dir = await tempDir('cluster-offices-');
  await put(dir, 'secrets/gent.token', 'token-gent\n');
  await put(dir, 'secrets/brugge.token', 'token-brugge\n');
  const config = await put(
    dir,
    'importer.json',
    JSON.stringify({
      connections: [
        { name: 'gent', apiBaseUrl: sandbox.url, tokenFile: 'secrets/gent.token' },
        { name: 'brugge', apiBaseUrl: sandbox.url, tokenFile: 'secrets/brugge.token' },
      ],
    }),
  );
  const dataDir = join(dir, 'data');
  const env = {
    REDIS_URL: cluster.url,
    QUEUE_PREFIX: `{${prefixName}}`,
    DATA_DIR: dataDir,
    INBOX_STABLE_MS: '300',
    JOB_LOCK_MS: '2000',
    RETRY_DELAY_MS: '50',
  };
  return { dir, config, dataDir, inbox: join(dataDir, 'inbox'), env };
}

async function summaries(reportsDir: string, count: number, cli: InProcessCli) {
  return eventually(
    async () => {
      const found: Summary[] = [];
      for (const dir of await readdir(reportsDir).catch(() => [])) {
        const text = await readFile(join(reportsDir, dir, 'summary.json'), 'utf8').catch(() => '');
        if (text !== '') found.push(JSON.parse(text) as Summary);
      }
      return found.length >= count ? found : undefined;
    },
    () => `not ${count} reports:\n${cli.stderr}`,
    60_000,
  );
}

describe('on a Redis Cluster', () => {
  it('imports for two offices, each on a shard of its own, every row once', async () => {
    const prefixName = await prefixOnTwoShards();
    const office = await installation(prefixName);
    const commands: MonitoredCommand[] = [];
    const monitors = await Promise.all(
      cluster.nodes.map((node) =>
        monitorRedis(`redis://127.0.0.1:${node.port}`, (command) => commands.push(command)),
      ),
    );
    const port = await freePort();
    const cli = new InProcessCli(['watch', '--config', office.config], {
      ...office.env,
      DASHBOARD_PORT: String(port),
    });
    try {
      await cli.waitForStderr(/Watching /, 30_000);
      const rows = (from: number, count: number) =>
        Array.from({ length: count }, (_, i) => sheetRow(from + i));
      await writeCsvSheet(join(office.inbox, 'gent'), 'gent.csv', rows(100, 60));
      await writeCsvSheet(join(office.inbox, 'brugge'), 'brugge.csv', rows(300, 40));
      const written = await summaries(join(office.dataDir, 'reports'), 2, cli);
      const byName = new Map(written.map((s) => [s.connection.name, s]));
      expect(byName.get('gent')).toMatchObject({ created: 60, failed: 0 });
      expect(byName.get('brugge')).toMatchObject({ created: 40, failed: 0 });
      // The terminal follows each office's sheet, in its own key space, to its end.
      await cli.waitForStderr(/Done: gent\.csv/, 30_000);
      await cli.waitForStderr(/Done: brugge\.csv/, 30_000);

      // Counted over HTTP: each row one order, in its own organisation.
      const contacts = async (token: string) =>
        (await new ApiClient(sandbox.url, token).listOrders()).map((o) => o.contact_name).sort();
      const expected = (from: number, count: number) =>
        rows(from, count)
          .map((_, i) => `Contact ${from + i}`)
          .sort();
      expect(await contacts('token-gent')).toEqual(expected(100, 60));
      expect(await contacts('token-brugge')).toEqual(expected(300, 40));

      // The dashboard reads both offices' keys, on their two shards.
      const imports = (await (await fetch(`http://127.0.0.1:${port}/api/imports`)).json()) as {
        imports: Array<{ name: string; connection?: string }>;
      };
      expect(imports.imports.map((s) => [s.name, s.connection]).sort()).toEqual([
        ['brugge.csv', 'brugge'],
        ['gent.csv', 'gent'],
      ]);
    } finally {
      cli.stop('SIGTERM');
      const finished = await cli.finished;
      for (const monitor of monitors) monitor.stop();
      expect(finished.code, finished.stderr).toBe(0);
    }

    // Each office's keys, its queues' and the importer's, are on one node; the two on two nodes.
    const gentTag = officeTag(prefixName, 'token-gent');
    const bruggeTag = officeTag(prefixName, 'token-brugge');
    const holding = async (tag: string) => {
      const held = await Promise.all(cluster.nodes.map((node) => keysOn(node, `${tag}*`)));
      return cluster.nodes.filter((_, i) => (held[i] ?? []).length > 0).map((node) => node.port);
    };
    const gentNodes = await holding(gentTag);
    const bruggeNodes = await holding(bruggeTag);
    expect(gentNodes).toHaveLength(1);
    expect(bruggeNodes).toHaveLength(1);
    expect(gentNodes[0]).not.toBe(bruggeNodes[0]);
    const gentNode = cluster.nodes.find((node) => node.port === gentNodes[0]);
    const gentKeys = gentNode === undefined ? [] : await keysOn(gentNode, `*${prefixName}*`);
    expect(gentKeys.some((key) => key.includes(':importer:sheet:'))).toBe(true);
    expect(gentKeys.some((key) => key.includes(':rows-'))).toBe(true);
    // Outside the offices' tags only the installation's marker (its home, store/redis-marker.ts),
    // which names both offices: a shard that comes back empty is told from a new office; and its
    // doorbell counter, one key every process reads each second whatever its offices.
    const everywhere = await Promise.all(
      cluster.nodes.map((node) => keysOn(node, `*${prefixName}*`)),
    );
    const home = `{${prefixName}}:importer:installations`;
    expect(
      everywhere
        .flat()
        .filter((key) => !key.startsWith(gentTag) && !key.startsWith(bruggeTag))
        .sort(),
    ).toEqual([`{${prefixName}}:importer:doorbell`, home]);
    const homeNode = await cluster.masterOf(await cluster.slotOf(home));
    expect(Object.keys(await homeNode.client.hgetall(home)).sort()).toHaveLength(3);

    // Every key one of our scripts touched was declared to it.
    const calls = scriptCalls(commands);
    expect(calls.length).toBeGreaterThan(100);
    const undeclared = calls.flatMap(({ declared, touched }) =>
      touched.filter((key) => !declared.includes(key)),
    );
    expect(undeclared).toEqual([]);

    // The dashboard alone reads both offices' sheets and queues, each in its key space.
    const boardPort = await freePort();
    const board = new InProcessCli(['dashboard', '--config', office.config], {
      ...office.env,
      DASHBOARD_PORT: String(boardPort),
    });
    try {
      const shown = await eventually(
        async () => {
          const answer = await fetch(`http://127.0.0.1:${boardPort}/api/imports`).catch(() => null);
          if (answer?.ok !== true) return undefined;
          return ((await answer.json()) as { imports: Array<{ name: string; state: string }> })
            .imports;
        },
        () => board.stderr,
      );
      expect(shown.map((s) => `${s.name} ${s.state}`).sort()).toEqual([
        'brugge.csv done',
        'gent.csv done',
      ]);
    } finally {
      board.stop('SIGTERM');
      expect((await board.finished).code, board.stderr).toBe(0);
    }

    // A purge (dry) finds the sheets of both offices, on their two shards.
    const dry = await runInProcess(
      ['purge', '--config', office.config, '--before', new Date().toISOString(), '--dry-run'],
      office.env,
    );
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/Would remove 2 sheets reported before/);

    // The same sheet again: every row a duplicate, not one more order.
    const again = await writeCsvSheet(await tempDir('again-'), 'gent.csv', [
      ...Array.from({ length: 60 }, (_, i) => sheetRow(100 + i)),
    ]);
    const imported = await runInProcess(
      ['import', again, '--config', office.config, '--connection', 'gent'],
      office.env,
    );
    expect(imported.code, imported.stderr).toBe(0);
    expect(await new ApiClient(sandbox.url, 'token-gent').listOrders()).toHaveLength(60);
    // One key a command: a node's keys are of several slots.
    for (const node of cluster.nodes) {
      const pipeline = node.client.pipeline();
      for (const key of await keysOn(node, `*${prefixName}*`)) pipeline.unlink(key);
      await pipeline.exec();
    }
  }, 120_000);

  it('says in one line that a node list does not answer, and exits 1', async () => {
    const dir = await tempDir('cluster-away-');
    const sheet = await writeCsvSheet(dir, 'one.csv', [sheetRow(1)]);
    const away = `redis+cluster://127.0.0.1:${await freePort()},127.0.0.1:${await freePort()}`;
    const said = {
      en: /no node .* answers/,
      nl: /geen enkele node .* antwoordt/,
      fr: /ne répond/,
    } as const;
    for (const language of ['en', 'nl', 'fr'] as const) {
      const finished = await runInProcess(['import', sheet], {
        REDIS_URL: away,
        DATA_DIR: join(dir, 'data'),
        API_BASE_URL: sandbox.url,
        API_TOKEN: 'token-gent',
        LANGUAGE: language,
      });
      expect(finished.code, finished.stderr).toBe(1);
      const lines = finished.stderr.trim().split('\n');
      expect(lines, finished.stderr).toHaveLength(1);
      expect(lines[0]).toContain(away.slice('redis+cluster://'.length));
      expect(lines[0]).toContain('Redis Cluster');
      expect(lines[0]).toMatch(said[language]);
      expect(finished.stderr).not.toMatch(/\n\s+at /);
    }
  }, 60_000);

  it('says in one line that a single server is no Cluster, and exits 1', async () => {
    const plain = await useTestRedis();
    try {
      const dir = await tempDir('cluster-plain-');
      const sheet = await writeCsvSheet(dir, 'one.csv', [sheetRow(1)]);
      const { host } = new URL(plain.url);
      const finished = await runInProcess(['import', sheet], {
        REDIS_URL: `redis+cluster://${host}`,
        QUEUE_PREFIX: `{${plain.prefix}}`,
        DATA_DIR: join(dir, 'data'),
        API_BASE_URL: sandbox.url,
        API_TOKEN: 'token-gent',
      });
      expect(finished.code, finished.stderr).toBe(1);
      expect(finished.stderr.trim().split('\n'), finished.stderr).toEqual([
        `order-importer: REDIS_URL redis+cluster://${host} names a Redis Cluster, but its nodes are no Cluster (ERR This instance has cluster support disabled): name a single server as redis://host:port.`,
      ]);
    } finally {
      await plain.cleanup();
    }
  });
});
