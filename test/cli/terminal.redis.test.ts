import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { InProcessCli, ROOT, runInProcess } from '../helpers/cli.js';
import { put, tempDir } from '../helpers/files.js';
import { type TestRedis, useTestRedis } from '../helpers/redis.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';
import { type TestWatch, testWatch } from '../helpers/watch.js';
import { recentProgress } from '../../src/store/progress.js';

/** Any control character but the line break: an escape sequence, a carriage return. */
const ANSI = /[^\P{Cc}\n]/u;

describe('what import says of the rows it did not create', () => {
  let redis: TestRedis;
  let sandbox: TestSandbox;
  let small: TestSandbox;
  beforeAll(async () => {
    redis = await useTestRedis();
    sandbox = await testSandbox();
    // A server whose PHP takes files of 1 KiB at most (upload_max_filesize).
    small = await testSandbox({ uploadMaxFileBytes: 1024 });
  });
  afterAll(async () => {
    await sandbox.close();
    await small.close();
    await redis.cleanup();
  });
  const env = async (api: TestSandbox) => ({
    REDIS_URL: redis.url,
    QUEUE_PREFIX: `{${redis.prefix}}`,
    API_BASE_URL: api.url,
    API_TOKEN: 'sandbox-demo-token',
    DATA_DIR: await tempDir('terminal-data-'),
    RETRY_DELAY_MS: '50',
  });

  it('lists each invalid row with its column and message, as validate does, up to 20, then where the rest are', async () => {
    const dir = await tempDir('reasons-');
    const rows = [
      sheetRow(1),
      sheetRow(2, { city: '', contact_language: 'de' }),
      ...Array.from({ length: 24 }, (_, i) => sheetRow(3 + i, { postal_code: '' })),
    ];
    const path = await writeCsvSheet(dir, 'mistakes.csv', rows);
    const finished = await runInProcess(['import', path], await env(sandbox));
    expect(finished.code, finished.stderr).toBe(2);
    const out = finished.stdout;
    expect(out).toContain(`${path}: 25 rows not created\n`);
    expect(out).toContain(
      [
        '  row 2 (line 3)  reference R-2  invalid',
        '    contact_language must be one of "nl", "en", "fr" (got "de").',
        '    city is required: the city of the property.',
      ].join('\n'),
    );
    expect(out).toContain(
      '  row 3 (line 4)  reference R-3  invalid\n    postal_code is required: the postal code of the property.\n',
    );
    // Twenty rows listed (row 2 to row 21), the five others counted, and where they are.
    expect(out).toContain('  row 21 (line 22)  reference R-21  invalid\n');
    expect(out).not.toContain('row 22 (line 23)');
    const report = /… and 5 more — see (\S+report\.csv)\n/.exec(out)?.[1] ?? '';
    expect(await readFile(report, 'utf8')).toContain('R-26');
    expect(out).not.toMatch(ANSI);
  });

  it('says nothing more when every row is created', async () => {
    const dir = await tempDir('clean-');
    const path = await writeCsvSheet(dir, 'clean.csv', [sheetRow(101), sheetRow(102)]);
    const finished = await runInProcess(['import', path], await env(sandbox));
    expect(finished.code, finished.stderr).toBe(0);
    expect(finished.stdout).not.toContain('not created');
  });

  it('explains a 422 "The files.0 failed to upload." as a file larger than the server takes, in the report and on the terminal', async () => {
    const dir = await tempDir('too-large-');
    await put(dir, 'docs/plan.pdf', Buffer.alloc(4096, 0x25));
    const path = await writeCsvSheet(dir, 'big-file.csv', [
      sheetRow(201, { files: 'docs/plan.pdf' }),
    ]);
    const finished = await runInProcess(['import', path], await env(small));
    expect(finished.code, finished.stderr).toBe(2);
    const [order] = await small.api.listOrders();
    expect(order?.files).toEqual([]);
    const explained =
      /the server refused the file — probably larger than it accepts \(its answer: "The files\.0 failed to upload\."\)/;
    // On the terminal: the row, its order, and why its file is not on it.
    expect(finished.stdout).toContain(
      `  row 1 (line 2)  reference R-201  failed (order ${order?.id})\n    order ${order?.id} exists, but 1 of its files could not be attached: docs/plan.pdf: POST `,
    );
    expect(finished.stdout).toMatch(explained);
    // In report.csv, the same words.
    const reportDir = /Report: (\S+)\n/.exec(finished.stdout)?.[1] ?? '';
    const report = await readFile(join(reportDir, 'report.csv'), 'utf8');
    // (a CSV cell: its quotes doubled)
    expect(report).toContain(
      'the server refused the file — probably larger than it accepts (its answer: ""The files.0 failed to upload."")',
    );
    expect(report).toContain('MAX_ATTACHMENT_MB');
  });
});

describe('what watch says', { timeout: 90_000 }, () => {
  const running: InProcessCli[] = [];
  const watches: TestWatch[] = [];
  afterEach(async () => {
    for (const cli of running.splice(0)) {
      cli.stop('SIGINT');
      cli.stop('SIGINT');
      await cli.finished;
    }
    await Promise.all(watches.splice(0).map((w) => w.close()));
  });

  /** A watch in this process on a sandbox answering each request after `latencyMs`. */
  async function watching(latencyMs: number, tty: boolean, extra: Record<string, string> = {}) {
    const w = await testWatch({ sandbox: { faults: { latencyMs } } });
    watches.push(w);
    const start = () => {
      const cli = new InProcessCli(['watch'], { ...w.env, ...extra }, ROOT, { tty });
      running.push(cli);
      return cli;
    };
    return { w, start };
  }

  async function doneSheetId(w: TestWatch): Promise<string> {
    const [sheet] = await w.done(1, 60_000);
    return sheet?.sheetId ?? '';
  }

  it('on a terminal: names the API at start, a progress line per sheet in work, and the sheet’s page when done', async () => {
    const { w, start } = await watching(60, true, { CONCURRENCY: '2' });
    const cli = start();
    await cli.waitForStderr(/Watching /, 30_000);
    expect(cli.stderr).toContain(
      `Orders go to the API at ${w.sandbox.url} (connection "default").`,
    );
    await writeCsvSheet(
      w.inbox,
      'slow.csv',
      Array.from({ length: 100 }, (_, i) => sheetRow(300 + i)),
    );
    const sheetId = await doneSheetId(w);
    const done = await cli.waitForStderr(/Done: slow\.csv .*\n/, 10_000);
    expect(done[0]).toContain(` — see http://127.0.0.1:${w.dashboardPort}/sheets/${sheetId}\n`);
    // Drawn in place (the line erased first), with rows final/total and a rate.
    const drawn = cli.stderr.split('\u001b[2K').slice(1);
    expect(
      drawn.some((line) =>
        /^slow\.csv {2}\[[#-]{20}\] \d+\/100 rows {2}\d+\.\d rows\/s/.test(line),
      ),
    ).toBe(true);
    // Its line is gone once the sheet is done: the Done line took its place.
    expect(cli.stderr).toContain('\u001b[1F\u001b[0JDone: slow.csv');
  });

  it('off a terminal: the same lines, plain, and no progress line for a sheet done within a minute', async () => {
    const { w, start } = await watching(60, false, { CONCURRENCY: '2' });
    const cli = start();
    await cli.waitForStderr(/Watching /, 30_000);
    await writeCsvSheet(
      w.inbox,
      'slow.csv',
      Array.from({ length: 60 }, (_, i) => sheetRow(400 + i)),
    );
    const sheetId = await doneSheetId(w);
    await cli.waitForStderr(/Done: slow\.csv .*\n/, 10_000);
    expect(cli.stderr).toContain(`Orders go to the API at ${w.sandbox.url}`);
    expect(cli.stderr).toContain(`/sheets/${sheetId}\n`);
    expect(cli.stderr).not.toMatch(/rows\/s|\/60 rows/);
    expect(cli.stderr).not.toMatch(ANSI);
  });

  it('says at a stop how many rows are left, and that is what the next start finishes', async () => {
    const { w, start } = await watching(150, false, { CONCURRENCY: '1' });
    const first = start();
    await first.waitForStderr(/Watching /, 30_000);
    await writeCsvSheet(
      w.inbox,
      'stopped.csv',
      Array.from({ length: 40 }, (_, i) => sheetRow(500 + i)),
    );
    // Stopped mid-sheet: some orders made, most not.
    for (let made = 0; made < 5; made = (await w.sandbox.api.listOrders()).length) await sleep(50);
    first.stop('SIGINT');
    const stopped = await first.finished;
    expect(stopped.code, stopped.stderr).toBe(0);
    const said = /(\d+) rows? left for the next start \(in 1 sheet\)\.\n/.exec(stopped.stderr);
    expect(said, stopped.stderr).not.toBeNull();
    const left = Number(said?.[1]);
    const made = (await w.sandbox.api.listOrders()).length;
    expect(left).toBeGreaterThan(0);
    expect(left).toBe(40 - made);
    const [sheet] = await recentProgress(w.ctx.store);
    expect(sheet?.final).toBe(made);

    // The next start makes exactly those orders, no other, and then has none left.
    const second = start();
    await doneSheetId(w);
    await second.waitForStderr(/Done: stopped\.csv/, 10_000);
    const orders = await w.sandbox.api.listOrders();
    expect(orders).toHaveLength(40);
    expect(new Set(orders.map((o) => o.contact_name)).size).toBe(40);
    second.stop('SIGINT');
    const again = await second.finished;
    expect(again.stderr).toContain('No rows left for the next start: every sheet taken is done.\n');
  });
});
