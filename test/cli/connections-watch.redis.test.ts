/**
 * Several offices in one installation (docs/design.md §2 "Connections"): `connections` in the
 * config file, served by one `watch` (in process, through its IO) over the real watcher, a real
 * Redis and a sandbox over HTTP that knows two tokens of two organisations. Each office's sheets
 * land only in its own organisation; `import --connection` and `validate --connection` pick one.
 */
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Summary } from '../../src/report/report.js';
import { freePort } from '../../src/redis/local-server.js';
import { ApiClient } from '../helpers/api.js';
import { InProcessCli, runInProcess } from '../helpers/cli.js';
import { put, tempDir } from '../helpers/files.js';
import { type TestRedis, useTestRedis } from '../helpers/redis.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';
import { type SheetRow, sheetRow, writeCsvSheet } from '../helpers/sheets.js';

let redis: TestRedis;
let sandbox: TestSandbox;
let asGent: ApiClient;
let asBrugge: ApiClient;
beforeAll(async () => {
  redis = await useTestRedis();
  sandbox = await testSandbox({
    tokens: [
      { token: 'token-gent', org: 'gent' },
      { token: 'token-brugge', org: 'brugge' },
    ],
  });
  asGent = new ApiClient(sandbox.url, 'token-gent');
  asBrugge = new ApiClient(sandbox.url, 'token-brugge');
});
afterAll(async () => {
  await sandbox.close();
  await redis.cleanup();
});

/** An installation of two offices: its config file (gent maps "Straat"), data folder and env. */
async function installation(extra: Record<string, unknown> = {}) {
  const dir = await tempDir('offices-');
  await put(dir, 'secrets/gent.token', 'token-gent\n');
  await put(dir, 'secrets/brugge.token', 'Bearer token-brugge\n');
  await put(dir, 'gent-mapping.json', JSON.stringify({ Straat: 'address1' }));
  const config = await put(
    dir,
    'importer.json',
    JSON.stringify({
      connections: [
        {
          name: 'gent',
          apiBaseUrl: sandbox.url,
          tokenFile: 'secrets/gent.token',
          mapping: 'gent-mapping.json',
        },
        {
          name: 'brugge',
          apiBaseUrl: `${sandbox.url}/`,
          tokenFile: 'secrets/brugge.token',
          inbox: 'west/brugge',
        },
      ],
      ...extra,
    }),
  );
  const dataDir = join(dir, 'data');
  const env = {
    REDIS_URL: redis.url,
    QUEUE_PREFIX: `{${redis.prefix}-${Math.random().toString(36).slice(2)}}`,
    DATA_DIR: dataDir,
    INBOX_STABLE_MS: '300',
    JOB_LOCK_MS: '2000',
    RETRY_DELAY_MS: '50',
  };
  return { dir, config, dataDir, inbox: join(dataDir, 'inbox'), env };
}

function rows(from: number, count: number): SheetRow[] {
  return Array.from({ length: count }, (_, i) => sheetRow(from + i));
}

/** A sheet whose street column is headed "Straat", as gent's mapping expects. */
async function gentSheet(dir: string, name: string, from: number, count: number) {
  const path = await writeCsvSheet(dir, name, rows(from, count));
  const text = await readFile(path, 'utf8');
  await writeFile(path, text.replace('address1', 'Straat'));
  return path;
}

/** The summaries written under `reportsDir`, once there are `count`. */
async function summaries(reportsDir: string, count: number, cli: InProcessCli) {
  const deadline = Date.now() + 25_000;
  for (;;) {
    const dirs = await readdir(reportsDir).catch(() => []);
    const found: Summary[] = [];
    for (const dir of dirs) {
      const text = await readFile(join(reportsDir, dir, 'summary.json'), 'utf8').catch(() => '');
      if (text !== '') found.push(JSON.parse(text) as Summary);
    }
    if (found.length >= count) return found;
    if (Date.now() > deadline) throw new Error(`not ${count} reports in time:\n${cli.stderr}`);
    await sleep(100);
  }
}

async function stop(cli: InProcessCli): Promise<void> {
  cli.stop('SIGTERM');
  const finished = await cli.finished;
  expect(finished.code, finished.stderr).toBe(0);
}

describe('connections in the config file', () => {
  it('one watch serves two offices: each sheet lands only in its own organisation', async () => {
    const office = await installation();
    const port = await freePort();
    const cli = new InProcessCli(['watch', '--config', office.config], {
      ...office.env,
      DASHBOARD_PORT: String(port),
    });
    try {
      await cli.waitForStderr(/Watching /, 30_000);
      const host = new URL(sandbox.url).host;
      expect(cli.stderr).toContain(
        `Connection "gent": orders to ${host} (${sandbox.url}), not the embedded sandbox; its sheets mapped by ${join(office.dir, 'gent-mapping.json')}.`,
      );
      expect(cli.stderr).toContain(`Connection "brugge": orders to ${host} (${sandbox.url})`);
      expect(cli.stderr).toMatch(/gent\/ for "gent", .*west\/brugge\/ for "brugge"/);
      expect(cli.stderr).not.toContain('token-');

      await gentSheet(join(office.inbox, 'gent'), 'gent-orders.csv', 100, 4);
      await writeCsvSheet(join(office.inbox, 'west', 'brugge'), 'brugge.csv', rows(200, 3));
      // Dropped in the inbox itself: no office's, so not taken, and said so.
      const stray = await writeCsvSheet(office.inbox, 'stray.csv', rows(300, 2));

      const written = await summaries(join(office.dataDir, 'reports'), 2, cli);
      expect(cli.stderr).toMatch(/Took \S*gent-orders\.csv as sheet \S+ for connection "gent"\./);
      expect(cli.stderr).toMatch(/Took \S*brugge\.csv as sheet \S+ for connection "brugge"\./);
      const byConnection = new Map(written.map((s) => [s.connection.name, s]));
      expect(byConnection.get('gent')).toMatchObject({ created: 4, invalid: 0, sandbox: false });
      expect(byConnection.get('brugge')).toMatchObject({ created: 3, invalid: 0 });
      expect(byConnection.get('gent')?.sheet).toMatch(/gent-orders\.csv$/);
      expect(byConnection.get('brugge')?.sheet).toMatch(/brugge\.csv$/);
      expect(byConnection.get('gent')?.connection.id).not.toBe(
        byConnection.get('brugge')?.connection.id,
      );

      const contacts = async (api: ApiClient) =>
        (await api.listOrders()).map((o) => o.contact_name).sort();
      expect(await contacts(asGent)).toEqual([100, 101, 102, 103].map((n) => `Contact ${n}`));
      expect(await contacts(asBrugge)).toEqual([200, 201, 202].map((n) => `Contact ${n}`));
      // Gent's own mapping read its "Straat" column.
      expect((await asGent.listOrders()).map((o) => o.address1)).toEqual(
        Array(4).fill('Kerkstraat'),
      );

      await cli.waitForStderr(/stray\.csv is in no office's folder/);
      expect(cli.stderr).toContain('gent/ (gent), west/brugge/ (brugge)');
      expect(await readFile(stray, 'utf8')).toContain('R-300');

      const imports = (await (await fetch(`http://127.0.0.1:${port}/api/imports`)).json()) as {
        imports: Array<{ name: string; connection?: string; apiHost?: string }>;
      };
      expect(imports.imports.map((s) => [s.name, s.connection, s.apiHost]).sort()).toEqual([
        ['brugge.csv', 'brugge', host],
        ['gent-orders.csv', 'gent', host],
      ]);
      const page = await (await fetch(`http://127.0.0.1:${port}/`)).text();
      expect(page).toContain(`<span class="connection">gent</span> ${host}`);
      expect(page).toContain(`<span class="connection">brugge</span> ${host}`);
    } finally {
      await stop(cli);
    }
    expect(cli.stderr).toMatch(/Stopped\.\n$/);
    // A hang guard: two offices' whole imports through the binary took over 30 s on a loaded machine.
  }, 90_000);

  it('refuses two entries of one API and one token at start: one connection under two names', async () => {
    const office = await installation();
    // Brugge's token file holds gent's token (spelt otherwise): one organisation, one connection.
    await put(office.dir, 'secrets/brugge.token', 'Bearer token-gent\n');
    for (const command of ['watch', 'worker']) {
      const finished = await runInProcess([command, '--config', office.config], {
        ...office.env,
        DASHBOARD_PORT: String(await freePort()),
      });
      expect(finished.code, `${command}: ${finished.stderr}`).toBe(1);
      expect(finished.stderr).toContain(
        `Connections "gent" and "brugge" have the same API (${sandbox.url}) and the same token`,
      );
      expect(finished.stderr).not.toContain('token-gent');
    }
  });

  it('says so in French and Dutch: one API and one token twice, an office inbox that is a link', async () => {
    const twice = await installation();
    await put(twice.dir, 'secrets/brugge.token', 'Bearer token-gent\n');
    const french = await runInProcess(['watch', '--config', twice.config], {
      ...twice.env,
      DASHBOARD_PORT: String(await freePort()),
      LANGUAGE: 'fr',
    });
    expect(french.code, french.stderr).toBe(1);
    expect(french.stderr).toContain(
      `order-importer: Les connexions «\u202fgent\u202f» et «\u202fbrugge\u202f» ont la même API (${sandbox.url}) et le même jeton\u202f:`,
    );
    const linked = await installation();
    await mkdir(linked.inbox, { recursive: true });
    await symlink(await tempDir('offices-share-'), join(linked.inbox, 'gent'));
    const dutch = await runInProcess(['watch', '--config', linked.config], {
      ...linked.env,
      DASHBOARD_PORT: String(await freePort()),
      LANGUAGE: 'nl',
    });
    expect(dutch.code, dutch.stderr).toBe(1);
    expect(dutch.stderr).toMatch(
      /order-importer: De inbox van verbinding “gent” \(\S+gent\) is een symbolische koppeling: de hot folder volgt geen koppelingen\./,
    );
  });

  it('refuses a schedule of one office whose folder is a link into another office’s inbox', async () => {
    const brugge = join(await tempDir('offices-data-'), 'inbox', 'west', 'brugge');
    await mkdir(brugge, { recursive: true });
    const nightly = join(await tempDir('offices-share-'), 'nightly');
    await symlink(brugge, nightly);
    const office = await installation({
      schedules: [{ name: 'nightly', cron: '0 2 * * *', dir: nightly, connection: 'gent' }],
    });
    const finished = await runInProcess(['watch', '--config', office.config], {
      ...office.env,
      DATA_DIR: join(brugge, '..', '..', '..'),
      DASHBOARD_PORT: String(await freePort()),
    });
    expect(finished.code, finished.stderr).toBe(1);
    expect(finished.stderr).toContain(
      `Schedule "nightly" of connection "gent" scans ${nightly}, which leads into the inbox of "brugge"`,
    );
  });

  it('import --connection sends with the connection it names, and its mapping', async () => {
    const office = await installation();
    const sheets = await tempDir('office-sheets-');
    const plain = await writeCsvSheet(sheets, 'plain.csv', rows(400, 2));
    const mapped = await gentSheet(sheets, 'mapped.csv', 500, 2);
    const run = (...args: string[]) =>
      runInProcess(['import', '--json', '--config', office.config, ...args], office.env);

    const toBrugge = await run('--connection', 'brugge', plain);
    expect(toBrugge.code, toBrugge.stderr).toBe(0);
    const [summary] = JSON.parse(toBrugge.stdout) as Summary[];
    expect(summary).toMatchObject({ created: 2, connection: { name: 'brugge' } });
    expect(toBrugge.stderr).toContain('Connection "brugge": orders to');

    const toGent = await run('--connection', 'gent', mapped);
    expect(toGent.code, toGent.stderr).toBe(0);
    expect(JSON.parse(toGent.stdout)).toMatchObject([{ created: 2, connection: { name: 'gent' } }]);

    const names = async (api: ApiClient) =>
      (await api.listOrders()).map((o) => o.contact_name).filter((n) => /Contact [45]/.test(n));
    expect((await names(asBrugge)).sort()).toEqual(['Contact 400', 'Contact 401']);
    expect((await names(asGent)).sort()).toEqual(['Contact 500', 'Contact 501']);
  });

  it.each([
    [[], /--connection NAME is needed: the config file has several connections \(gent, brugge\)\./],
    [
      ['--connection', 'oostende'],
      /--connection oostende is not one of the config file's connections: gent, brugge\./,
    ],
  ])('import %j refuses to guess the office', async (args, message) => {
    const office = await installation();
    const sheet = await writeCsvSheet(await tempDir('office-sheets-'), 's.csv', rows(600, 1));
    const before = (await asGent.listOrders()).length + (await asBrugge.listOrders()).length;
    const finished = await runInProcess(
      ['import', '--config', office.config, ...args, sheet],
      office.env,
    );
    expect(finished.code).toBe(1);
    expect(finished.stderr).toMatch(message);
    expect((await asGent.listOrders()).length + (await asBrugge.listOrders()).length).toBe(before);
  });

  it('validate --connection reads a sheet with that office’s mapping', async () => {
    const office = await installation();
    const sheet = await gentSheet(await tempDir('office-sheets-'), 'check.csv', 700, 2);
    const validate = (name: string) =>
      runInProcess(['validate', '--json', '--config', office.config, '--connection', name, sheet]);
    const asGentDoes = await validate('gent');
    expect(asGentDoes.code, asGentDoes.stderr).toBe(0);
    const asBruggeDoes = await validate('brugge');
    expect(asBruggeDoes.code).toBe(2);
    expect(asBruggeDoes.stdout).toMatch(/address1/);
    const unnamed = await runInProcess(['validate', '--config', office.config, sheet]);
    expect(unnamed.code).toBe(1);
    expect(unnamed.stderr).toMatch(/--connection NAME is needed/);
    const ownMapping = await runInProcess([
      'validate',
      '--config',
      office.config,
      '--mapping',
      join(office.dir, 'gent-mapping.json'),
      sheet,
    ]);
    expect(ownMapping.code, ownMapping.stderr).toBe(0);
    // No connection with a mapping of its own: which one does not matter to validate.
    const plain = JSON.parse(await readFile(office.config, 'utf8')) as {
      connections: Array<{ mapping?: string }>;
    };
    for (const connection of plain.connections) delete connection.mapping;
    const noMappings = await put(office.dir, 'plain.json', JSON.stringify(plain));
    const anyOffice = await runInProcess(['validate', '--config', noMappings, sheet]);
    expect(anyOffice.code, anyOffice.stderr).toBe(2);
    expect(anyOffice.stdout).toMatch(/address1/);
  });

  it('refuses to start when a token file cannot be read, naming the connection', async () => {
    const office = await installation();
    await writeFile(join(office.dir, 'secrets', 'brugge.token'), '  \n');
    const finished = await runInProcess(['worker', '--config', office.config], office.env);
    expect(finished.code).toBe(1);
    expect(finished.stderr).toMatch(
      /The token file of connection "brugge" \(.*brugge\.token\) is empty\./,
    );
  });

  it('a worker holds every connection’s token and works the sheets of each', async () => {
    const office = await installation();
    const worker = new InProcessCli(['worker', '--config', office.config], office.env);
    try {
      await worker.waitForStderr(/Worker ready/);
      expect(worker.stderr).toMatch(/connection gent [0-9a-f]{16}.*connection brugge [0-9a-f]{16}/);
      const sheets = await tempDir('office-sheets-');
      for (const [name, from] of [
        ['gent', 800],
        ['brugge', 900],
      ] as const) {
        const sheet =
          name === 'gent'
            ? await gentSheet(sheets, `${name}.csv`, from, 2)
            : await writeCsvSheet(sheets, `${name}.csv`, rows(from, 2));
        const finished = await runInProcess(
          [
            'import',
            '--json',
            '--no-workers',
            '--config',
            office.config,
            '--connection',
            name,
            sheet,
          ],
          office.env,
        );
        expect(finished.code, finished.stderr).toBe(0);
        expect(JSON.parse(finished.stdout)).toMatchObject([{ created: 2, connection: { name } }]);
      }
      const names = async (api: ApiClient) =>
        (await api.listOrders()).map((o) => o.contact_name).filter((n) => /Contact [89]/.test(n));
      expect((await names(asGent)).sort()).toEqual(['Contact 800', 'Contact 801']);
      expect((await names(asBrugge)).sort()).toEqual(['Contact 900', 'Contact 901']);
    } finally {
      await stop(worker);
    }
  });

  it('a schedule takes its sheets for the connection it names', async () => {
    const share = await tempDir('office-share-');
    const office = await installation({
      schedules: [{ name: 'west-share', cron: '* * * * * *', dir: share, connection: 'brugge' }],
    });
    const cli = new InProcessCli(
      ['watch', '--no-dashboard', '--config', office.config],
      office.env,
    );
    try {
      await cli.waitForStderr(/Watching /, 30_000);
      expect(cli.stderr).toMatch(
        /Schedule "west-share" \(\* \* \* \* \* \*\) scans \S+ for connection "brugge"\./,
      );
      await writeCsvSheet(share, 'nightly.csv', rows(1000, 2));
      const [summary] = await summaries(join(office.dataDir, 'reports'), 1, cli);
      expect(summary).toMatchObject({ created: 2, connection: { name: 'brugge' } });
      const names = async (api: ApiClient) =>
        (await api.listOrders())
          .map((o) => o.contact_name)
          .filter((n) => /Contact 100[01]$/.test(n));
      expect((await names(asBrugge)).sort()).toEqual(['Contact 1000', 'Contact 1001']);
      expect(await names(asGent)).toEqual([]);
    } finally {
      await stop(cli);
    }
  });
});
