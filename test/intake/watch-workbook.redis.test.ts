/**
 * The hot folder takes a workbook (docs/design.md §2 "Workbooks"), run as a user runs it: `watch`
 * in process, a real inbox, Redis under its own prefix, the sandbox over HTTP. A folder with an
 * .xlsx, its attachments and a mapping.json naming the worksheet is imported; its failed/ workbook
 * is fixed in "Excel" (exceljs) and dropped back, and its row is then created with its file.
 */
import { cp, readdir, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';

import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Context } from '../../src/context.js';
import { recentProgress } from '../../src/store/progress.js';
import { InProcessCli, importerEnv } from '../helpers/cli.js';
import { put, tempDir } from '../helpers/files.js';
import { observingContext } from '../helpers/pipeline.js';
import { type TestRedis, useTestRedis } from '../helpers/redis.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';
import { type Cell, writeWorkbook } from '../helpers/workbooks.js';
import { inlineRow, workbookParts } from '../helpers/xlsx-parts.js';
import { rawZip } from '../helpers/zip.js';

const HEADER = [
  'Referentie',
  'property_type',
  'address1',
  'address2',
  'city',
  'postal_code',
  'contact_name',
  'contact_language',
  'contact_email',
  'inv_mail',
  'invoice_to',
  'is_contact_owner',
  'order_products',
  'files',
];

function row(n: number, city: string | null): Cell[] {
  return [
    `WB-${n}`,
    'Andere',
    'Veldstraat',
    n,
    city,
    9000,
    `Werkboek ${n}`,
    'nl',
    `wb${n}@example.be`,
    'facturen@example.be',
    'tenant',
    'contact',
    'EPC',
    `plans/plan-${n}.pdf`,
  ];
}

let redis: TestRedis;
let sandbox: TestSandbox;
let cli: InProcessCli;
let inbox: string;
let dataDir: string;
let ctx: Context;
let closeObserver: () => Promise<void>;

beforeAll(async () => {
  redis = await useTestRedis();
  sandbox = await testSandbox();
  dataDir = await tempDir('watch-workbook-');
  cli = new InProcessCli(
    ['watch', '--no-dashboard'],
    importerEnv(
      { redis, apiUrl: sandbox.url, dataDir },
      { INBOX_STABLE_MS: '300', JOB_LOCK_MS: '2000' },
    ),
  );
  await cli.waitForStderr(/Watching /, 30_000);
  inbox = join(dataDir, 'inbox');
  const observer = await observingContext({
    redis,
    sandbox,
    reportsDir: join(dataDir, 'reports'),
  });
  ctx = observer.ctx;
  closeObserver = () => observer.close();
});

afterAll(async () => {
  cli.stop('SIGTERM');
  const finished = await cli.finished;
  expect(finished.code, finished.stderr).toBe(0);
  await closeObserver();
  await sandbox.close();
  await redis.cleanup();
});

/** The sheet of that name (other than `except`) once its report is written. */
async function doneSheet(name: string, except?: string) {
  const deadline = Date.now() + 40_000;
  for (;;) {
    const sheets = await recentProgress(ctx.store);
    const sheet = sheets.find((s) => s.name === name && s.sheetId !== except);
    if (sheet?.state === 'done' && sheet.reportDir !== undefined) return sheet;
    if (Date.now() > deadline)
      throw new Error(`${name} not done: ${JSON.stringify(sheet)}\nwatch said: ${cli.stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Moves a folder into the inbox whole, as a user drops one. */
async function drop(staging: string, name: string): Promise<void> {
  await rename(staging, join(inbox, name));
}

describe('watch and a workbook', () => {
  it('imports a dropped .xlsx from its mapping’s worksheet; its fixed failed/ workbook creates the rest', async () => {
    const staging = join(await tempDir('drop-'), 'agency');
    await put(staging, 'plans/plan-1.pdf', '%PDF-1.4 one');
    await put(staging, 'plans/plan-2.pdf', '%PDF-1.4 two');
    await put(
      staging,
      'mapping.json',
      JSON.stringify({ columns: { Referentie: 'reference' }, worksheet: 'Bestellingen' }),
    );
    await writeWorkbook(join(staging, 'orders.xlsx'), [
      { name: 'Uitleg', rows: [['Vul het tweede blad in.']] },
      { name: 'Bestellingen', rows: [HEADER, row(1, 'Gent'), row(2, null)] },
    ]);
    await drop(staging, 'agency');
    const first = await doneSheet('orders.xlsx');
    expect(first.counts).toMatchObject({ created: 1, invalid: 1 });

    const failedDir = join(first.reportDir ?? '', 'failed');
    expect((await readdir(failedDir)).sort()).toEqual(['mapping.json', 'orders.xlsx', 'plans']);
    // The user opens failed/orders.xlsx in Excel, fills in the city and saves it.
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(join(failedDir, 'orders.xlsx'));
    const sheet = book.getWorksheet('Bestellingen');
    expect(sheet?.getRow(2).getCell(1).value).toBe('WB-2');
    expect(sheet?.getRow(2).getCell(5).value).toBe('');
    const cityCell = sheet?.getRow(2).getCell(5);
    if (cityCell) cityCell.value = 'Gent';
    await book.xlsx.writeFile(join(failedDir, 'orders.xlsx'));

    const back = join(await tempDir('fixed-'), 'fixed');
    await cp(failedDir, back, { recursive: true });
    await drop(back, 'fixed');
    const second = await doneSheet('orders.xlsx', first.sheetId);
    expect(second.counts).toMatchObject({ created: 1, invalid: 0 });

    const orders = await sandbox.api.listOrders();
    expect(orders).toHaveLength(2);
    const two = orders.find((o) => o.contact_name === 'Werkboek 2');
    expect(two).toMatchObject({ city: 'Gent', address2: '2', postal_code: '9000' });
    expect(two?.files.map((f) => f.file_name)).toEqual(['plan-2.pdf']);
  });

  it('reads past an entry the zip does not list, refuses a damaged workbook, and goes on', async () => {
    // An entry of broken data that the central directory does not list comes first: never read.
    const hidden = {
      name: 'xl/worksheets/sheet9.xml',
      packed: Buffer.alloc(7 * 1024, 0xff),
      size: 1 << 20,
      listed: false,
    };
    const cells = (n: number) =>
      row(n, 'Gent').map((cell) => (cell === null ? '' : `${cell as string | number}`));
    const listed = workbookParts({
      sheets: [{ name: 'O', rows: `${inlineRow(1, HEADER)}${inlineRow(2, cells(8))}` }],
    });
    const first = join(await tempDir('drop-hidden-'), 'hidden');
    await put(first, 'plans/plan-8.pdf', '%PDF-1.4 eight');
    await put(first, 'mapping.json', JSON.stringify({ columns: { Referentie: 'reference' } }));
    await put(first, 'hidden.xlsx', rawZip([hidden, ...listed]));
    await drop(first, 'hidden');
    // Then one whose worksheet's data is broken: refused, moved to failed/.
    const broken = listed.map((p) =>
      p.name.endsWith('sheet1.xml') ? { ...p, packed: Buffer.alloc(7 * 1024, 0xff) } : p,
    );
    const staging = await tempDir('drop-damaged-');
    await put(staging, 'damaged.xlsx', rawZip(broken));
    await rename(join(staging, 'damaged.xlsx'), join(inbox, 'damaged.xlsx'));
    const good = join(await tempDir('drop-good-'), 'next');
    await put(good, 'plans/plan-7.pdf', '%PDF-1.4 seven');
    await put(good, 'mapping.json', JSON.stringify({ columns: { Referentie: 'reference' } }));
    await writeWorkbook(join(good, 'next.xlsx'), [{ name: 'O', rows: [HEADER, row(7, 'Gent')] }]);
    await drop(good, 'next');

    expect((await doneSheet('hidden.xlsx')).counts).toMatchObject({ created: 1 });
    expect((await doneSheet('next.xlsx')).counts).toMatchObject({ created: 1 });
    const failed = (await readdir(join(dataDir, 'failed'))).find((f) =>
      f.endsWith('-damaged.xlsx'),
    );
    expect(failed).toBeDefined();
    const why = await readFile(join(dataDir, 'failed', failed ?? '', 'error.txt'), 'utf8');
    expect(why).toMatch(/damaged \(its part xl\/worksheets\/sheet1\.xml cannot be unpacked\)/);
    expect(cli.stderr).not.toMatch(/\n\s+at /);
  });
});
