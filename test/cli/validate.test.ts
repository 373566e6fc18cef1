import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';

import { describe, expect, it } from 'vitest';

import { validateCommand, type ValidateSummary } from '../../src/cli/commands/validate.js';
import { runInProcess, ROOT } from '../helpers/cli.js';
import { put, tempDir } from '../helpers/files.js';

const samples = ['samples/orders.csv', 'samples/orders.json', 'samples/orders.ndjson'];
const dir = await tempDir('validate-e2e-');
await put(dir, 'docs/plan.pdf', '%PDF-1.4');
const mistakes = await put(
  dir,
  'mistakes.csv',
  [
    'Reference;Straat;address2;city;postal_code;contact_name;contact_language;contact_email;inv_mail;invoice_to;is_contact_owner;property_type;order_products;files',
    'R1;Kerkstraat;1;Gent;9000;An;nl;an@example.be;f@example.be;tenant;contact;Andere;EPC;docs/plan.pdf',
    'R2;Kerkstraat;2;;9000;Piet;de;piet@example.be;f@example.be;tenant;contact;Andere;ELEC-1.1;docs/none.pdf',
  ].join('\r\n'),
);
const mapping = await put(dir, 'mapping.json', JSON.stringify({ Straat: 'address1' }));

describe('order-importer --version', () => {
  it('prints the version of package.json', async () => {
    const { version } = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
      version: string;
    };
    const finished = await runInProcess(['--version']);
    expect(finished.code).toBe(0);
    expect(finished.stdout).toBe(`${version}\n`);
  });
});

describe('order-importer validate', () => {
  it('passes the samples with exit code 0', async () => {
    const finished = await runInProcess(['validate', ...samples]);
    expect(finished.stderr).toBe('');
    expect(finished.code).toBe(0);
    expect(finished.stdout).toContain('samples/orders.csv  (CSV, ";"-separated, windows-1252)');
    expect(finished.stdout.match(/5 rows: 5 valid, 0 invalid/g)).toHaveLength(3);
  });

  it('names row, line, column and why for a sheet with mistakes, and exits 2', async () => {
    const finished = await runInProcess(['validate', mistakes, '--mapping', mapping]);
    expect(finished.code).toBe(2);
    expect(finished.stdout).toContain('row 2 (line 3)  reference R2');
    expect(finished.stdout).toContain('    city is required: the city of the property.');
    expect(finished.stdout).toContain(
      '    contact_language must be one of "nl", "en", "fr" (got "de").',
    );
    expect(finished.stdout).toContain(
      '    breaker_boxes is required because ELEC-1.1 ("Elektrische keuring woning bij verkoop (AREI)") is an electrical inspection: give the number of breaker boxes.',
    );
    expect(finished.stdout).toMatch(/ {4}files: "docs\/none\.pdf" does not exist/);
    expect(finished.stdout).toContain('2 rows: 1 valid, 1 invalid');
    expect(finished.stdout).not.toContain('row 1 ');
  });

  it('prints one JSON summary per sheet with --json, and the human report on stderr', async () => {
    const finished = await runInProcess([
      'validate',
      '--json',
      samples[0] ?? '',
      mistakes,
      '--mapping',
      mapping,
    ]);
    expect(finished.code).toBe(2);
    const summaries = JSON.parse(finished.stdout) as ValidateSummary[];
    expect(summaries.map((s) => [s.sheet, s.total, s.valid, s.invalid])).toEqual([
      [join(ROOT, 'samples/orders.csv'), 5, 5, 0],
      [mistakes, 2, 1, 1],
    ]);
    expect(summaries[0]).toMatchObject({
      format: 'csv',
      encoding: 'windows-1252',
      delimiter: ';',
      error: null,
    });
    expect(summaries[0]?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(summaries[1]?.problems).toContainEqual({
      row: 2,
      line: 3,
      column: 'city',
      message: 'city is required: the city of the property.',
    });
    expect(finished.stderr).toContain('2 rows: 1 valid, 1 invalid');
  });

  it('says why a sheet cannot be read, and goes on with the others', async () => {
    const broken = await put(dir, 'broken.csv', 'city,remark\nGent,"never closed\n');
    const finished = await runInProcess(['validate', broken, samples[1] ?? '']);
    expect(finished.code).toBe(2);
    expect(finished.stdout).toMatch(/cannot be read: line 2: a quoted cell is never closed/);
    expect(finished.stdout).toContain('5 rows: 5 valid, 0 invalid');
  });

  it('exits 1 for a sheet that does not exist', async () => {
    const finished = await runInProcess(['validate', join(dir, 'nope.csv'), samples[0] ?? '']);
    expect(finished.code).toBe(1);
    expect(finished.stdout).toMatch(/nope\.csv does not exist/);
  });

  it.each([
    [['--max-attachment-mb', 'lots'], {}, /^order-importer: --max-attachment-mb: /],
    [[], { MAX_ATTACHMENT_MB: '-3' }, /^order-importer: MAX_ATTACHMENT_MB: /],
    [
      ['--products', 'nowhere.json'],
      {},
      /^order-importer: Product catalogue .*nowhere\.json cannot be read/,
    ],
    [['--mapping', 'nowhere.json'], {}, /^order-importer: Mapping .*nowhere\.json cannot be read/],
  ])('exits 1 with one line for bad settings %j %j', async (args, env, message) => {
    const finished = await runInProcess(['validate', samples[0] ?? '', ...args], env);
    expect(finished.code).toBe(1);
    expect(finished.stderr).toMatch(message);
    expect(finished.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('applies the attachment size limit', async () => {
    await put(dir, 'big/docs/scan.pdf', Buffer.alloc(1024 * 1024 + 10));
    const sheet = await put(
      dir,
      'big/sheet.csv',
      `${['order_products', 'files'].join(',')}\nEPC,docs/scan.pdf\n`,
    );
    const finished = await runInProcess(['validate', sheet], { MAX_ATTACHMENT_MB: '1' });
    expect(finished.stdout).toMatch(
      /"docs\/scan\.pdf" is 1 MB \(1048586 bytes\), over the limit of 1 MB \(1048576 bytes\) per attachment/,
    );
  });
});

describe('order-importer validate on a sheet of many invalid rows', () => {
  const HEADER =
    'reference,property_type,address1,address2,city,postal_code,contact_name,contact_language,contact_email,inv_mail,invoice_to,is_contact_owner,order_products';
  /** Every row invalid once (its language), references distinct. */
  const invalidSheet = (rows: number) =>
    put(
      dir,
      `invalid-${rows}.csv`,
      [
        HEADER,
        ...Array.from(
          { length: rows },
          (_, i) =>
            `R${i + 1},Andere,Kerkstraat,1,Gent,9000,An,de,an@example.be,f@example.be,tenant,contact,EPC`,
        ),
      ].join('\n'),
    );
  const problem = (row: number) => ({
    row,
    line: row + 1,
    column: 'contact_language',
    message: 'contact_language must be one of "nl", "en", "fr" (got "de").',
  });

  it('lists the first 10,000 problems with --json and counts the others, each row still named on stderr', async () => {
    const sheet = await invalidSheet(10_003);
    const finished = await runInProcess(['validate', '--json', sheet]);
    expect(finished.code).toBe(2);
    const [summary] = JSON.parse(finished.stdout) as ValidateSummary[];
    expect(summary).toMatchObject({ total: 10_003, valid: 0, invalid: 10_003 });
    expect(summary?.problems).toHaveLength(10_000);
    expect(summary?.problems[0]).toEqual(problem(1));
    expect(summary?.problems.at(-1)).toEqual(problem(10_000));
    expect(summary?.problemsOmitted).toBe(3);
    expect(finished.stderr).toContain(
      '  row 10003 (line 10004)  reference R10003\n    contact_language must be one of "nl", "en", "fr" (got "de").\n',
    );
    expect(finished.stderr.match(/^ {2}row /gm)).toHaveLength(10_003);
  });

  it('waits for a slow output instead of holding what it has not written yet', async () => {
    const sheet = await invalidSheet(20_000);
    let written = 0;
    let mostHeld = 0;
    // Takes a chunk a turn of the event loop, as a pipe to a slow reader does.
    const slow = new Writable({
      highWaterMark: 16 * 1024,
      write(chunk: Buffer, _encoding, done) {
        written += chunk.length;
        setImmediate(done);
      },
    });
    const origin = slow.write.bind(slow);
    slow.write = ((chunk: string) => {
      const room = origin(chunk);
      mostHeld = Math.max(mostHeld, slow.writableLength);
      return room;
    }) as typeof slow.write;
    const code = await validateCommand(
      [sheet],
      {},
      {
        stdout: slow,
        stderr: slow,
        env: {},
        cwd: dir,
        stopSignal: () => new Promise(() => undefined),
      },
    );
    await new Promise<void>((resolve) => slow.end(resolve));
    expect(code).toBe(2);
    // 20,000 rows write about 2 MB; what waits to be written stays near one batch of rows.
    expect(written).toBeGreaterThan(2_000_000);
    expect(mostHeld).toBeLessThan(300_000);
  });

  it('ends when its output is closed while it waits, rather than waiting for ever', async () => {
    const sheet = await invalidSheet(5_000);
    // Takes nothing, then is closed, as a reader that went away.
    const stalled = new Writable({ highWaterMark: 1024, write: () => undefined });
    setTimeout(() => stalled.destroy(), 50);
    const code = await validateCommand(
      [sheet],
      {},
      {
        stdout: stalled,
        stderr: stalled,
        env: {},
        cwd: dir,
        stopSignal: () => new Promise(() => undefined),
      },
    );
    expect(code).toBe(2);
  });
});
