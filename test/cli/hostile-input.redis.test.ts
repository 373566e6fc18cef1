import { readFile } from 'node:fs/promises';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ValidateSummary } from '../../src/cli/commands/validate.js';
import type { Summary } from '../../src/report/report.js';
import { runInProcess } from '../helpers/cli.js';
import { put, tempDir } from '../helpers/files.js';
import { type TestRedis, useTestRedis } from '../helpers/redis.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

const dir = await tempDir('hostile-e2e-');
const LEVELS = 400_000;
/** 800 KB of nesting inside one order: under the 1 MB a line may hold. */
const bomb = `{"reference": "BOMB", "order_products": ${'['.repeat(LEVELS)}${']'.repeat(LEVELS)}}`;
/** The control characters of an output, line breaks apart. */
const controls = (output: string) => output.match(/[^\P{Cc}\n]/gu) ?? [];

const tooDeep =
  'row 2 nests objects or lists more than 64 levels deep; an order needs only a few levels: flatten it.';

describe('validate on a nesting bomb', () => {
  it('in NDJSON: one invalid row, the others valid, exit 2', async () => {
    const lines = [JSON.stringify(sheetRow(1)), bomb, JSON.stringify(sheetRow(3))];
    const sheet = await put(dir, 'bomb.ndjson', `${lines.join('\n')}\n`);
    const finished = await runInProcess(['validate', sheet]);
    expect(finished.stderr).toBe('');
    expect(finished.code).toBe(2);
    expect(finished.stdout).toContain(`  row 2 (line 2)\n    ${tooDeep}\n`);
    expect(finished.stdout).toContain('3 rows: 2 valid, 1 invalid');
  });

  it('in a JSON array: one invalid row, the others valid, exit 2', async () => {
    const elements = [JSON.stringify(sheetRow(1)), bomb, JSON.stringify(sheetRow(3))];
    const sheet = await put(dir, 'bomb.json', `[\n${elements.join(',\n')}\n]\n`);
    const finished = await runInProcess(['validate', '--json', sheet]);
    expect(finished.code).toBe(2);
    const [summary] = JSON.parse(finished.stdout) as ValidateSummary[];
    expect(summary).toMatchObject({ total: 3, valid: 2, invalid: 1, error: null });
    expect(summary?.problems).toEqual([{ row: 2, line: null, column: '', message: tooDeep }]);
  });
});

describe('validate on a UTF-8 sheet with a stray byte', () => {
  it('refuses it, naming the line, and exits 2', async () => {
    const good = await writeCsvSheet(dir, 'names.csv', [
      sheetRow(1, { contact_name: 'Françoise Dubœuf' }),
      sheetRow(2, { city: 'Liège' }),
      sheetRow(3, { contact_name: 'Jef' }),
    ]);
    const bytes = await readFile(good);
    const at = bytes.indexOf('Jef');
    const stray = Buffer.concat([
      bytes.subarray(0, at + 1),
      Buffer.from([0xe9]),
      bytes.subarray(at + 1),
    ]);
    const sheet = await put(dir, 'stray.csv', stray);
    const finished = await runInProcess(['validate', sheet]);
    expect(finished.code).toBe(2);
    expect(finished.stdout).toContain(
      'cannot be read: the sheet is UTF-8 except for bytes on line 4 that are not UTF-8',
    );
    expect(finished.stdout).toContain('save the sheet as UTF-8');
  });
});

describe('validate on cells holding terminal control sequences', () => {
  const colour = '\u001b[31m';
  const title = '\u001b]0;owned\u0007';

  it('prints them escaped, on stdout and in the human output on stderr', async () => {
    const sheet = await writeCsvSheet(dir, 'escapes.csv', [
      sheetRow(1, { reference: `R${colour}1`, contact_language: `nl${title}`, city: '' }),
    ]);
    const plain = await runInProcess(['validate', sheet]);
    expect(plain.code).toBe(2);
    expect(controls(plain.stdout)).toEqual([]);
    expect(plain.stdout).toContain('reference R\\u001b[31m1');
    expect(plain.stdout).toContain('(got "nl\\u001b]0;owned\\u0007")');

    const json = await runInProcess(['validate', '--json', sheet]);
    expect(controls(json.stderr)).toEqual([]);
    expect(json.stderr).toContain('reference R\\u001b[31m1');
    // JSON keeps the value itself: its own escaping makes it safe.
    const [summary] = JSON.parse(json.stdout) as ValidateSummary[];
    expect(summary?.problems.map((p) => p.message)).toContain(
      `contact_language must be one of "nl", "en", "fr" (got "nl${title}").`,
    );
  });
});

describe('import of hostile sheets', () => {
  let redis: TestRedis;
  let sandbox: TestSandbox;
  let env: Record<string, string>;
  beforeAll(async () => {
    redis = await useTestRedis();
    sandbox = await testSandbox();
    env = {
      REDIS_URL: redis.url,
      QUEUE_PREFIX: `{${redis.prefix}}`,
      API_BASE_URL: sandbox.url,
      API_TOKEN: 'sandbox-demo-token',
      DATA_DIR: await tempDir('hostile-import-'),
      RETRY_DELAY_MS: '50',
    };
  });
  afterAll(async () => {
    await sandbox.close();
    await redis.cleanup();
  });

  it('a nesting bomb is one invalid row; the others are created', async () => {
    const lines = [JSON.stringify(sheetRow(501)), bomb, JSON.stringify(sheetRow(503))];
    const sheet = await put(dir, 'import-bomb.ndjson', `${lines.join('\n')}\n`);
    const finished = await runInProcess(['import', '--json', sheet], env);
    expect(finished.code, finished.stderr).toBe(2);
    const [summary] = JSON.parse(finished.stdout) as Summary[];
    expect(summary).toMatchObject({ total: 3, created: 2, invalid: 1 });
    const failed = await readFile(`${summary?.reportDir ?? ''}/failed/import-bomb.ndjson`, 'utf8');
    expect(JSON.parse(failed)).toEqual({
      source_row: 2,
      source_sheet: summary?.sheetId,
      error: tooDeep,
    });
  });

  it('prints control characters of names, columns and cells escaped', async () => {
    const name = 'orders\u001b[2J.csv';
    const sheet = await put(
      dir,
      name,
      `reference;city;"\u001b]0;owned\u0007"\r\nR\u001b[31m1;Gent;x\r\n`,
    );
    const finished = await runInProcess(['import', sheet], env);
    expect(finished.code, finished.stderr).toBe(2);
    for (const output of [finished.stdout, finished.stderr]) {
      expect(controls(output)).toEqual([]);
    }
    expect(finished.stderr).toContain('orders\\u001b[2J.csv as sheet');
    expect(finished.stdout).toContain('orders\\u001b[2J.csv');
    expect(finished.stdout).toContain('Unknown column ignored: "\\u001b]0;owned\\u0007"');
  });
});
