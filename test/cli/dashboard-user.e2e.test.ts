/**
 * The users file through the built binary: `dashboard-user` writes it with the password piped
 * in, and `dashboard` listening beyond loopback lets that user in and no one else; a users file
 * it cannot use stops `dashboard` at once with one line naming the file and the entry.
 */
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { freePort } from '../../src/redis/local-server.js';
import { orderImporter } from '../helpers/cli.js';
import { put, tempDir } from '../helpers/files.js';
import { type TestRedis, useTestRedis } from '../helpers/redis.js';

let redis: TestRedis | undefined;
let env: Record<string, string> = {};

beforeAll(async () => {
  redis = await useTestRedis();
  const dir = await tempDir('dashboard-users-');
  env = {
    REDIS_URL: redis.url,
    QUEUE_PREFIX: `{${redis.prefix}}`,
    DATA_DIR: join(dir, 'data'),
    DASHBOARD_USERS_FILE: join(dir, 'users.json'),
  };
});

afterAll(async () => {
  await redis?.cleanup();
});

const login = (user: string, password: string) => ({
  authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
});

describe('the binary', () => {
  it('lets the user dashboard-user wrote into a dashboard open beyond loopback, and no one else', async () => {
    const adding = orderImporter(['dashboard-user', 'gent', '--offices', 'gent'], env);
    adding.child.stdin.end('gent-wachtwoord\n');
    const added = await adding.finished;
    expect(added.stderr).toBe('');
    expect(added.stdout).toMatch(/^Added dashboard user gent in .*users\.json: sees gent\.\n$/);

    const port = await freePort();
    const dashboard = orderImporter(['dashboard', '--port', String(port)], {
      ...env,
      DASHBOARD_HOST: '0.0.0.0',
    });
    try {
      await dashboard.waitForStderr(/Stop with Ctrl\+C/);
      const base = `http://127.0.0.1:${port}`;
      expect(
        (await fetch(`${base}/api/imports`, { headers: login('gent', 'gent-wachtwoord') })).status,
      ).toBe(200);
      expect(
        (await fetch(`${base}/api/imports`, { headers: login('gent', 'wrong-password') })).status,
      ).toBe(401);
      expect((await fetch(`${base}/api/imports`)).status).toBe(401);
      // Not a "*" user: bull-board and the metrics are not there for them.
      expect(
        (await fetch(`${base}/queues`, { headers: login('gent', 'gent-wachtwoord') })).status,
      ).toBe(404);
    } finally {
      dashboard.signal('SIGTERM');
      expect((await dashboard.finished).code).toBe(0);
    }
  }, 60_000);

  it('stops the dashboard with one line for a users file it cannot use', async () => {
    const dir = await tempDir('dashboard-users-bad-');
    const file = await put(
      dir,
      'users.json',
      '[{ "user": "gent", "password": "plain", "offices": ["gent"] }]',
    );
    const refused = await orderImporter(['dashboard', '--port', String(await freePort())], {
      ...env,
      DASHBOARD_USERS_FILE: file,
    }).finished;
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      new RegExp(
        `^order-importer: DASHBOARD_USERS_FILE ${file.replaceAll('/', '\\/')}, entry 1 \\(gent\\): "password" is not a hash order-importer dashboard-user writes: [^\\n]*\\n$`,
      ),
    );
  }, 60_000);
});
