import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import type { ValidateSummary } from '../../src/cli/commands/validate.js';
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
    expect(finished.stdout).toContain('    city: city is required: the city of the property.');
    expect(finished.stdout).toContain(
      '    contact_language: contact_language must be one of "nl", "en", "fr" (got "de").',
    );
    expect(finished.stdout).toContain(
      '    breaker_boxes: breaker_boxes is required because ELEC-1.1 is an electrical inspection (category 1.1): give the number of breaker boxes.',
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
    [
      ['--mapping', 'nowhere.json'],
      {},
      /^order-importer: Column mapping .*nowhere\.json cannot be read/,
    ],
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
