/**
 * The rest of the errors a command can end with: a port already taken, the product catalogue,
 * the data folder's installation marker, a token no request can send, a schedule leading into
 * another office's inbox. Each made for real and said in Dutch and French.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:net';
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { readToken } from '../../src/app/api-connection.js';
import { startMonitoring } from '../../src/app/monitoring.js';
import { waitForApi } from '../../src/app/wait-for-api.js';
import { sandboxIdentity } from '../../src/connections/sandbox-identity.js';
import { createLogger } from '../../src/logger.js';
import { Metrics } from '../../src/metrics/metrics.js';
import { loadCatalogue, parseCatalogue } from '../../src/orders/catalogue.js';
import { loadSettings } from '../../src/settings/load.js';
import { ScheduledFolders } from '../../src/intake/schedules.js';
import { installationOf } from '../../src/store/installation.js';
import type { Settings } from '../../src/settings/load.js';
import { runInProcess } from '../helpers/cli.js';
import { expectSaid, thrown } from '../helpers/error-said.js';
import { put, tempDir } from '../helpers/files.js';

const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(
    servers.map(
      (server) =>
        new Promise<void>((resolve) => {
          server.close(() => {
            resolve();
          });
        }),
    ),
  );
});

/** A port on 127.0.0.1 that is taken until the test file ends. */
async function takenPort(): Promise<number> {
  const server = createServer();
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('the product catalogue', () => {
  it('empty, a repeated id, unreadable, not JSON: in Dutch and French', async () => {
    const dir = await tempDir('catalogue-');
    const bad = await put(dir, 'products.json', '[{');
    const product = { id: 'p1', name: 'EPC', category: 'epc' };
    expectSaid(await thrown(() => parseCatalogue([], 'products.json')));
    expectSaid(await thrown(() => parseCatalogue([product, product], 'products.json')));
    expectSaid(await thrown(() => loadCatalogue(join(dir, 'none.json'))));
    expectSaid(await thrown(() => loadCatalogue(bad)));
  });
});

describe("the data folder's installation marker", () => {
  it('damaged, or a link: in Dutch and French', async () => {
    const damaged = await tempDir('marker-');
    await put(damaged, 'installation.json', 'not json');
    expectSaid(await thrown(() => installationOf(damaged)));
    const linked = await tempDir('marker-');
    const elsewhere = await put(linked, 'elsewhere.json', '{}');
    await symlink(elsewhere, join(linked, 'installation.json'));
    const said = expectSaid(await thrown(() => installationOf(linked)));
    expect(said.nl).toBe(
      `${join(linked, 'installation.json')} is een koppeling: het moet een eigen bestand zijn.`,
    );
  });
});

describe('a token no request can send', () => {
  it('a line break, a control character: in Dutch and French', async () => {
    const dir = await tempDir('token-');
    const file = await put(dir, 'api.token', 'abc\u0001def\n');
    expectSaid(await thrown(() => readToken({ apiToken: 'abc\ndef' } as Settings)));
    expectSaid(await thrown(() => readToken({ apiTokenFile: file } as Settings)));
  });
});

describe("a schedule leading into another office's inbox", () => {
  it('is said in Dutch and French', async () => {
    const dir = await tempDir('schedule-');
    const namur = join(dir, 'inbox', 'namur');
    await mkdir(namur, { recursive: true });
    const folders = new ScheduledFolders(
      [{ name: 'nightly', cron: '0 2 * * *', dir: namur }],
      'gent',
      [{ name: 'namur', dir: namur }],
    );
    expectSaid(await thrown(() => folders.check()));
  });
});

describe('a port already taken, through the CLI', () => {
  it('dashboard --port: a Dutch line', async () => {
    const port = await takenPort();
    const dir = await tempDir('dashboard-port-');
    const finished = await runInProcess(['dashboard', '--port', String(port)], {
      LANGUAGE: 'nl',
      REDIS_URL: 'redis://127.0.0.1:6379',
      QUEUE_PREFIX: `{errwords-${process.pid}}`,
      DATA_DIR: dir,
    });
    expect(finished.code).toBe(1);
    expect(finished.stderr).toBe(
      `order-importer: Het dashboard kan niet luisteren op 127.0.0.1:${port} (EADDRINUSE): stel DASHBOARD_PORT of --port in.\n`,
    );
  });

  it('sandbox --port: a French line', async () => {
    const port = await takenPort();
    const finished = await runInProcess(['sandbox', '--port', String(port)], { LANGUAGE: 'fr' });
    expect(finished.code).toBe(1);
    expect(finished.stderr).toBe(
      `order-importer: Impossible d’écouter sur 127.0.0.1:${port} (EADDRINUSE)\u202f: choisissez un autre --port.\n`,
    );
  });
});

describe('a port already taken, and other errors at start', () => {
  it('METRICS_PORT: in Dutch and French', async () => {
    const port = await takenPort();
    const settings = { metricsHost: '127.0.0.1', apiWaitS: 1, language: 'en' } as Settings;
    const metrics = new Metrics();
    expectSaid(
      await thrown(() =>
        startMonitoring(settings, createLogger({ level: 'silent' }), {
          metrics,
          port,
          announce: () => undefined,
        }),
      ),
    );
  });

  it('a wait for the API stopped by a signal: in Dutch and French', async () => {
    const stop = new AbortController();
    stop.abort();
    const said = expectSaid(
      await thrown(() =>
        waitForApi(() => Promise.reject(new Error('aborted')), {
          baseUrl: 'https://api.example.test',
          waitS: 1,
          announce: () => undefined,
          logger: createLogger({ level: 'silent' }),
          signal: stop.signal,
        }),
      ),
    );
    expect(said.nl).toBe('Gestopt tijdens het wachten op de API op https://api.example.test.');
  });

  it("a sandbox's id file that holds no id: in Dutch and French", async () => {
    const dir = await tempDir('sandbox-id-');
    await put(dir, 'instance-id', 'not an id\n');
    expectSaid(await thrown(() => sandboxIdentity(dir)));
  });
});

describe('API_BASE_URL that is no API address', () => {
  it('not a URL, not http, with a password, with a query: in Dutch and French', async () => {
    const dir = await tempDir('api-url-');
    for (const url of ['nowhere', 'ftp://x.test', 'https://me:pw@x.test', 'https://x.test/?a=1']) {
      const env = { API_BASE_URL: url, API_TOKEN: 't', DATA_DIR: join(dir, 'data') };
      const said = expectSaid(await thrown(() => loadSettings({ cwd: dir, env })));
      expect(said.nl).not.toMatch(/\b(must|give|is not)\b/);
    }
  });
});
