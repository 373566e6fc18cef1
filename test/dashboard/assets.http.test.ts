import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { assetsDir, FRAME_PLACES, loadPageAssets } from '../../src/dashboard/assets.js';
import { PLACES } from '../../src/dashboard/page.js';
import { type RunningDashboard, startDashboard } from '../../src/dashboard/server.js';
import { createLogger } from '../../src/logger.js';
import { packageRoot } from '../../src/package-root.js';

const ASSETS = ['page.html', 'frame.html', 'page.css', 'page.js'];
const root = packageRoot();
let dashboard: RunningDashboard;
let failing: RunningDashboard;

beforeAll(async () => {
  const common = {
    host: '127.0.0.1',
    port: 0,
    health: () => Promise.resolve({ redis: true, api: null }),
    queues: [],
    logger: createLogger({ level: 'silent' }),
  };
  dashboard = await startDashboard({ ...common, overview: () => Promise.resolve([]) });
  failing = await startDashboard({
    ...common,
    overview: () => Promise.reject(new Error('Redis is away')),
  });
});
afterAll(async () => {
  await dashboard.close();
  await failing.close();
});

const file = (name: string) => readFile(join(assetsDir(), name), 'utf8');

describe("the dashboard's page files", () => {
  it.each([
    ['page.js', 'text/javascript; charset=utf-8'],
    ['page.css', 'text/css; charset=utf-8'],
  ])('serves /assets/%s as it is in src/dashboard/assets/', async (name, type) => {
    const answer = await fetch(`${dashboard.url}/assets/${name}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe(type);
    expect(await answer.text()).toBe(await file(name));
  });

  it('serves / as page.html with its places filled, under a policy allowing no inline code', async () => {
    const answer = await fetch(`${dashboard.url}/`);
    expect(answer.status).toBe(200);
    const page = await answer.text();
    // page.html in English (no language asked for): its texts from the catalogue, none left out.
    const template = (await loadPageAssets()).spoken.get('en')?.template ?? '';
    expect(template).toContain('<h1>Imports</h1>');
    expect(page.startsWith(template.split(FRAME_PLACES.languages)[0] ?? '-')).toBe(true);
    expect(page.endsWith(template.split(PLACES.notTaken)[1] ?? '-')).toBe(true);
    expect(page).not.toContain('{{');
    expect(page).toContain('<script type="module" src="/assets/page.js"></script>');
    expect(answer.headers.get('content-security-policy')).toMatch(/script-src 'self';/);
  });

  it.each(['/assets/page.html', '/assets/nope.js', '/assets/..%2Fserver.ts', '/assets/'])(
    'serves nothing else under /assets/ (%s)',
    async (path) => {
      expect((await fetch(`${dashboard.url}${path}`)).status).toBe(404);
    },
  );

  it('still serves the page when the sheets cannot be read, saying so', async () => {
    const answer = await fetch(`${failing.url}/`);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain('The imports cannot be read now: Redis is away');
  });
});

describe('where the page files ship', () => {
  it('are in the package npm packs', async () => {
    const { stdout } = await promisify(execFile)(
      'npm',
      ['pack', '--dry-run', '--json', '--ignore-scripts'],
      { cwd: root },
    );
    const [packed] = JSON.parse(stdout) as [{ files: { path: string }[] }];
    const paths = packed.files.map((f) => f.path);
    for (const name of ASSETS) expect(paths).toContain(`src/dashboard/assets/${name}`);
  });

  it('are copied into the image', async () => {
    const dockerfile = await readFile(join(root, 'Dockerfile'), 'utf8');
    const copied = [...dockerfile.matchAll(/^COPY\s+(\S+)/gm)].map((m) => m[1]);
    expect(copied.some((from) => from === 'src' || from === 'src/dashboard/assets')).toBe(true);
  });
});
