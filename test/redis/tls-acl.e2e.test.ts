/**
 * docs/operations.md, "Redis in production": a Redis spoken to over TLS whose certificate a
 * private CA signed (`rediss://` with REDIS_TLS_CA_FILE), and a Redis whose ACL user the importer
 * logs in as (`redis://user:password@…`). Each server is the test's own `redis-server`, its CA and
 * certificate made by `openssl`, its user made with ACL SETUSER; the shared Redis is not touched.
 * What cannot be used is one line and exit 1, and no line of any output holds the password, not
 * even at LOG_LEVEL=trace.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { orderImporter } from '../helpers/cli.js';
import { endsWithin } from '../helpers/cli-waits.js';
import { put, tempDir } from '../helpers/files.js';
import { type RedisProcess, startRedisServer, stopAll } from '../helpers/redis-servers.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';
import { makeTestCa, startTlsRedis, type TestCa } from '../helpers/tls-ca.js';

const PASSWORD = 'Acl-Pa55word-7f3e';

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(async () => {
  await sandbox.close();
  await stopAll();
});

/** `import` of a sheet of `rows` rows, with these settings: its exit. */
async function importing(rows: number, env: NodeJS.ProcessEnv) {
  const first = 7000 + (await sandbox.api.listOrders()).length;
  const sheetRows = Array.from({ length: rows }, (_, i) => sheetRow(first + i));
  const sheet = await writeCsvSheet(await tempDir('tls-acl-sheet-'), 'orders.csv', sheetRows);
  const cli = orderImporter(['import', sheet], {
    API_BASE_URL: sandbox.url,
    API_TOKEN: 'sandbox-demo-token',
    DATA_DIR: await tempDir('tls-acl-data-'),
    LANGUAGE: 'en',
    ...env,
  });
  return endsWithin(cli, 25_000);
}

/** Exit 1, one line on stderr (and nothing on stdout): that line. */
function oneLine(exit: Awaited<ReturnType<typeof importing>>): string {
  expect(exit.code, exit.stderr).toBe(1);
  expect(exit.stdout).toBe('');
  const lines = exit.stderr.trimEnd().split('\n');
  expect(lines, exit.stderr).toHaveLength(1);
  return lines[0] ?? '';
}

describe('rediss:// with a private CA', () => {
  let ca: TestCa;
  let server: RedisProcess;
  beforeAll(async () => {
    ca = await makeTestCa(await tempDir('tls-ca-'));
    server = await startTlsRedis(ca);
  }, 30_000);

  it('imports with REDIS_TLS_CA_FILE naming the CA', async () => {
    const before = (await sandbox.api.listOrders()).length;
    const exit = await importing(3, {
      REDIS_URL: `rediss://localhost:${server.port}`,
      REDIS_TLS_CA_FILE: ca.caFile,
    });
    expect(exit.code, exit.stderr).toBe(0);
    expect((await sandbox.api.listOrders()).length).toBe(before + 3);
  }, 30_000);

  it('without the CA: one line saying the certificate is not trusted, exit 1', async () => {
    const line = oneLine(await importing(1, { REDIS_URL: `rediss://localhost:${server.port}` }));
    expect(line).toBe(
      `order-importer: REDIS_URL rediss://localhost:${server.port}: the certificate of that Redis is not trusted (self-signed certificate in certificate chain): set REDIS_TLS_CA_FILE to the CA certificate (PEM) that signed it.`,
    );
  }, 30_000);

  it('a CA file that cannot be read, or holds no certificate: one line, exit 1', async () => {
    const url = `rediss://localhost:${server.port}`;
    const missing = `${ca.caFile}.missing`;
    expect(oneLine(await importing(1, { REDIS_URL: url, REDIS_TLS_CA_FILE: missing }))).toMatch(
      new RegExp(`^order-importer: REDIS_TLS_CA_FILE ${missing} cannot be used: ENOENT`),
    );
    const notPem = await put(await tempDir('tls-ca-bad-'), 'ca.txt', 'not a certificate\n');
    expect(oneLine(await importing(1, { REDIS_URL: url, REDIS_TLS_CA_FILE: notPem }))).toBe(
      `order-importer: REDIS_TLS_CA_FILE ${notPem} cannot be used: it holds no certificate in PEM (-----BEGIN CERTIFICATE-----).`,
    );
    // A CA beside a URL that is not TLS would be taken for TLS that is not there.
    expect(
      oneLine(
        await importing(1, { REDIS_URL: 'redis://127.0.0.1:6379', REDIS_TLS_CA_FILE: ca.caFile }),
      ),
    ).toMatch(
      /^order-importer: REDIS_TLS_CA_FILE is set, and REDIS_URL redis:\/\/127\.0\.0\.1:6379 is not spoken to over TLS/,
    );
  }, 60_000);
});

describe('an ACL user', () => {
  let server: RedisProcess;
  beforeAll(async () => {
    server = await startRedisServer();
    const admin = new Redis({ port: server.port, host: '127.0.0.1', lazyConnect: true });
    await admin.connect();
    await admin.acl('SETUSER', 'importer', 'on', `>${PASSWORD}`, '~*', '&*', '+@all');
    // Only the user gets in: the default user (no password) is turned off.
    await admin.acl('SETUSER', 'default', 'off');
    admin.disconnect();
  }, 30_000);

  it('imports as the user; not a line of the output, at trace level, holds the password', async () => {
    const before = (await sandbox.api.listOrders()).length;
    const exit = await importing(3, {
      REDIS_URL: `redis://importer:${PASSWORD}@127.0.0.1:${server.port}`,
      LOG_LEVEL: 'trace',
    });
    expect(exit.code, exit.stderr).toBe(0);
    expect((await sandbox.api.listOrders()).length).toBe(before + 3);
    expect(exit.stderr).toContain(`Redis: redis://importer:***@127.0.0.1:${server.port}`);
    expect(`${exit.stdout}${exit.stderr}`).not.toContain(PASSWORD);
  }, 30_000);

  it('a wrong password: one line, exit 1, and neither password in any output', async () => {
    const wrong = 'Wr0ng-Pa55word-c41d';
    const exit = await importing(1, {
      REDIS_URL: `redis://importer:${wrong}@127.0.0.1:${server.port}`,
      LOG_LEVEL: 'trace',
    });
    expect(oneLine(exit)).toBe(
      `order-importer: REDIS_URL redis://importer:***@127.0.0.1:${server.port}: Redis refused the user and password (WRONGPASS invalid username-password pair or user is disabled.): check them in REDIS_URL, and that the user is on (ACL SETUSER … on).`,
    );
    expect(`${exit.stdout}${exit.stderr}`).not.toContain(wrong);
    expect(`${exit.stdout}${exit.stderr}`).not.toContain(PASSWORD);
  }, 30_000);

  it('a setting that is not a URL the importer takes does not show what may be a password', async () => {
    const exit = await importing(1, { REDIS_URL: `rediss+cluster://importer:${PASSWORD}@h:1,h:2` });
    expect(oneLine(exit)).toMatch(
      /^order-importer: REDIS_URL: must be a redis:\/\/, rediss:\/\/, redis\+sentinel:\/\/, rediss\+sentinel:\/\/ or redis\+cluster:\/\/ URL/,
    );
    expect(exit.stderr).not.toContain(PASSWORD);
  }, 30_000);
});
