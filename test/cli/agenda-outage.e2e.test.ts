/**
 * The agenda of `dashboard` while Redis is away (docs/design.md "Outages, said once"): /agenda, its
 * downloads and an office's calendar feed answer within 2 s from the agenda last read, the page
 * saying that Redis does not answer; a dashboard that has read no agenda yet says so, and its feed
 * asks the calendar to come back (503, Retry-After) rather than answering an empty calendar. Its
 * own redis-server (AOF on), stopped and started again on the same port.
 */
import { afterEach, describe, expect, it } from 'vitest';

import { freePort, type LocalRedis, startLocalRedis } from '../../src/redis/local-server.js';
import { type CliProcess, orderImporter } from '../helpers/cli.js';
import { endsWithin } from '../helpers/cli-waits.js';
import { tempDir } from '../helpers/files.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

/** The design's promise while Redis is away. */
const ANSWER_MS = 2000;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A page of the dashboard, with a guard against a hang beyond the design's 2 s. */
async function page(
  url: string,
): Promise<{ status: number; body: string; ms: number; retry: string | null }> {
  const started = performance.now();
  const answer = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  const body = await answer.text();
  const ms = Math.round(performance.now() - started);
  return { status: answer.status, body, ms, retry: answer.headers.get('retry-after') };
}

/** Two orders imported and read back by `status`, the first planned 10 days on. */
async function agendaKept(sandbox: TestSandbox, env: NodeJS.ProcessEnv): Promise<void> {
  const sheet = await writeCsvSheet(await tempDir('agenda-outage-sheet-'), 'agenda.csv', [
    sheetRow(8001),
    sheetRow(8002),
  ]);
  const imported = await endsWithin(orderImporter(['import', '--json', sheet], env), 60_000);
  expect(imported.code, imported.stderr).toBe(0);
  const [summary] = JSON.parse(imported.stdout) as Array<{ sheetId: string }>;
  const listed = await sandbox.api.send('GET', '/__sandbox/orders');
  const [first] = (listed.json as { data: Array<{ id: number }> }).data;
  if (summary === undefined || first === undefined) throw new Error('nothing imported');
  const day = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
  const planned = await sandbox.api.send('POST', `/__sandbox/orders/${first.id}/planning`, {
    body: JSON.stringify({
      status: 'scheduled',
      inspections: [{ date: `${day} 10:30:00`, inspector_name: 'Zoë Brontë' }],
    }),
    headers: { 'content-type': 'application/json' },
  });
  expect(planned.status, planned.text).toBe(200);
  const status = await endsWithin(orderImporter(['status', summary.sheetId], env), 60_000);
  expect(status.code, status.stderr).toBe(0);
}

/** `dashboard` alone on a free port, stopped (and killed if it must be) after the test. */
async function dashboard(env: NodeJS.ProcessEnv): Promise<{ cli: CliProcess; url: string }> {
  const port = await freePort();
  const cli = orderImporter(['dashboard'], { ...env, DASHBOARD_PORT: String(port) });
  cleanups.push(async () => {
    if (cli.child.exitCode === null && cli.child.signalCode === null) {
      cli.signal('SIGKILL');
      await cli.finished;
    }
  });
  await cli.waitForStderr(/Dashboard: /, 30_000);
  return { cli, url: `http://127.0.0.1:${port}` };
}

describe("the dashboard's agenda while Redis is away", () => {
  it('answers within 2 s from the agenda last read, or asks to come back when it has none', async () => {
    const redisDir = await tempDir('agenda-outage-redis-');
    const running: { redis: LocalRedis } = {
      redis: await startLocalRedis({ dir: redisDir, appendOnly: true }),
    };
    const sandbox = await testSandbox();
    cleanups.push(async () => {
      await running.redis.stop();
      await sandbox.close();
    });
    const env = {
      REDIS_URL: running.redis.url,
      QUEUE_PREFIX: '{agenda-outage}',
      API_BASE_URL: sandbox.url,
      API_TOKEN: 'sandbox-demo-token',
      DATA_DIR: await tempDir('agenda-outage-data-'),
      RETRY_DELAY_MS: '50',
    };
    await agendaKept(sandbox, env);
    const read = await dashboard(env);
    const unread = await dashboard(env);
    // Each route read once while Redis answers: what the dashboard then has.
    const agenda = await page(`${read.url}/agenda`);
    expect(agenda.body).toContain('Zoë Brontë');
    const feedPath = /\/agenda\/default\.ics\?key=[A-Za-z0-9_-]+/.exec(agenda.body)?.[0];
    if (feedPath === undefined) throw new Error(`no feed on the page:\n${agenda.body}`);
    const paths = ['/agenda', '/agenda.csv', '/agenda.xlsx', '/agenda.ics', feedPath];
    for (const path of paths) expect((await page(`${read.url}${path}`)).status, path).toBe(200);
    expect((await page(`${unread.url}/`)).status).toBe(200);

    await running.redis.stop();
    const answered = new Map<string, Awaited<ReturnType<typeof page>>>();
    for (const path of paths) answered.set(path, await page(`${read.url}${path}`));
    const none = {
      page: await page(`${unread.url}/agenda`),
      csv: await page(`${unread.url}/agenda.csv`),
      feed: await page(`${unread.url}${feedPath}`),
    };
    console.log(
      'agenda while Redis is away (ms):',
      [...answered].map(([path, a]) => `${path.slice(0, 20)} ${a.ms}`).join(', '),
      `; none kept: page ${none.page.ms}, csv ${none.csv.ms}, feed ${none.feed.ms}`,
    );
    for (const [path, answer] of answered) {
      expect(answer.status, `${path}: ${answer.body.slice(0, 300)}`).toBe(200);
      expect(answer.ms, path).toBeLessThan(ANSWER_MS);
    }
    expect(answered.get('/agenda')?.body).toContain('Zoë Brontë');
    expect(answered.get('/agenda')?.body).toMatch(/Redis does not answer/);
    expect(answered.get('/agenda.csv')?.body).toContain('Zoë Brontë');
    expect(answered.get('/agenda.ics')?.body).toContain('BEGIN:VEVENT');
    expect(answered.get(feedPath)?.body).toContain('BEGIN:VEVENT');

    expect(none.page.status).toBe(503);
    expect(none.page.body).toMatch(/Redis does not answer .*nothing could be read from it yet/);
    expect(none.csv.status).toBe(503);
    expect(none.csv.body).toMatch(/Redis does not answer/);
    expect(none.feed.status).toBe(503);
    expect(Number(none.feed.retry)).toBeGreaterThan(0);
    for (const answer of Object.values(none)) expect(answer.ms).toBeLessThan(ANSWER_MS);
    running.redis = await startLocalRedis({
      dir: redisDir,
      appendOnly: true,
      port: running.redis.port,
    });
  }, 180_000);
});
