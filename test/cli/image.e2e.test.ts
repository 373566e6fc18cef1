import { cp, mkdir } from 'node:fs/promises';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { freePort } from '../../src/redis/local-server.js';
import { ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/files.js';
import { type LaidOutImage, layOutImage } from '../helpers/image.js';
import { type TestWatch, testWatch } from '../helpers/watch.js';

// The image's start, outside Docker: its final stage laid out in a folder, its ENTRYPOINT run
// there with its ENV (and the settings docker-compose.yml gives), its HEALTHCHECK asked.
let image: LaidOutImage;
let watch: TestWatch;
beforeAll(async () => {
  image = await layOutImage(ROOT, await tempDir('image-'));
  watch = await testWatch();
}, 60_000);
afterAll(async () => {
  await watch.close();
});

async function healthy(env: Record<string, string>, args: string[] = []): Promise<void> {
  for (let i = 0; i < 200; i += 1) {
    if ((await image.check(env, args)) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the healthcheck never passed');
}

describe('the image, run as its Dockerfile says', () => {
  it('starts watch by default: imports a sample sheet, is healthy, stops cleanly on SIGTERM', async () => {
    expect(image.cmd).toEqual(['watch']);
    const env = { ...watch.env, INBOX_POLLING: 'true', TZ: 'Europe/Brussels' };
    const watcher = image.start(image.cmd, env);
    await watcher.waitForStderr(/Watching /, 30_000);
    await healthy(env);

    // samples/ is in the image: its sheet, with its documents, goes through.
    await mkdir(watch.inbox, { recursive: true });
    await cp(join(image.app, 'samples', 'documents'), join(watch.inbox, 'documents'), {
      recursive: true,
    });
    await cp(join(image.app, 'samples', 'orders.csv'), join(watch.inbox, 'orders.csv'));
    const [sheet] = await watch.done(1, 30_000);
    expect(sheet?.state).toBe('done');

    watcher.signal('SIGTERM');
    const exit = await watcher.finished;
    expect(exit.stderr).toMatch(/SIGTERM/);
    expect(exit.code).toBe(0);
    // Stopped, the probe fails.
    expect(await image.check(env)).toBe(1);
  });

  it('runs worker, which stops cleanly on SIGTERM', async () => {
    const worker = image.start(['worker'], watch.env);
    await worker.waitForStderr(/Worker ready/, 30_000);
    worker.signal('SIGTERM');
    const exit = await worker.finished;
    expect(exit.code).toBe(0);
    expect(exit.stderr).toMatch(/Stopped\./);
  });

  it("runs the sandbox, which compose's probe finds and which stops cleanly on SIGTERM", async () => {
    const port = await freePort();
    const data = await tempDir('image-sandbox-');
    const args = ['sandbox', '--host', '127.0.0.1', '--port', String(port), '--data', data];
    const sandbox = image.start(args);
    await sandbox.waitFor(/base URL/, 30_000);
    const probe = [`http://127.0.0.1:${port}/__sandbox/products`];
    // Without a token the sandbox answers 401: not healthy for the strict probe, alive for --listening.
    expect(await image.check({}, probe)).toBe(1);
    await healthy({}, [...probe, '--listening']);
    sandbox.signal('SIGTERM');
    const exit = await sandbox.finished;
    expect(exit.code).toBe(0);
  });

  it('fails its healthcheck when nothing answers', async () => {
    const port = await freePort();
    expect(await image.check({ DASHBOARD_PORT: String(port) })).toBe(1);
  });
});
