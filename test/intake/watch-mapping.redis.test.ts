/**
 * The hot folder with a user's mapping (docs/design.md §2 "Mapping"), run as a user runs it:
 * `watch` in process through its CommandIo, a real inbox and watcher, a real Redis under its own
 * prefix, the sandbox over HTTP. A Belgian agency's Dutch export (Windows-1252, `;`) dropped as
 * a folder with its mapping.json is imported with the mapping's words applied.
 */
import { access, cp, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Context } from '../../src/context.js';
import { recentProgress } from '../../src/store/progress.js';
import type { SandboxListedOrder } from '../helpers/api.js';
import { InProcessCli, runInProcess } from '../helpers/cli.js';
import { DUTCH_MAPPING, DUTCH_ROWS, writeDutchSheet } from '../helpers/dutch-sheet.js';
import { put, tempDir } from '../helpers/files.js';
import { observingContext } from '../helpers/pipeline.js';
import { type TestRedis, useTestRedis } from '../helpers/redis.js';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.js';

interface RunningWatch {
  cli: InProcessCli;
  inbox: string;
  ctx: Context;
  close(): Promise<void>;
}

let redis: TestRedis;
let sandbox: TestSandbox;
beforeAll(async () => {
  redis = await useTestRedis();
  sandbox = await testSandbox();
});
afterAll(async () => {
  await sandbox.close();
  await redis.cleanup();
});

/** `order-importer watch` with a data folder of its own, once it watches. */
async function startWatch(args: string[] = [], prefix = 'a'): Promise<RunningWatch> {
  const dataDir = await tempDir('watch-mapping-');
  const env = watchEnv(dataDir, prefix);
  const cli = new InProcessCli(['watch', '--no-dashboard', ...args], env);
  await cli.waitForStderr(/Watching /, 30_000);
  const observer = await observingContext({
    redis: { ...redis, prefix: `${redis.prefix}-${prefix}` },
    sandbox,
    reportsDir: join(dataDir, 'reports'),
  });
  return {
    cli,
    inbox: join(dataDir, 'inbox'),
    ctx: observer.ctx,
    close: async () => {
      cli.stop('SIGTERM');
      const finished = await cli.finished;
      expect(finished.code, finished.stderr).toBe(0);
      await observer.close();
    },
  };
}

function watchEnv(dataDir: string, prefix: string): Record<string, string> {
  return {
    REDIS_URL: redis.url,
    QUEUE_PREFIX: `{${redis.prefix}-${prefix}}`,
    API_BASE_URL: sandbox.url,
    API_TOKEN: 'sandbox-demo-token',
    DATA_DIR: dataDir,
    INBOX_STABLE_MS: '300',
    JOB_LOCK_MS: '2000',
    RETRY_DELAY_MS: '50',
  };
}

/** Writes a folder elsewhere and moves it into the inbox whole, as a user drops one. */
async function dropFolder(
  inbox: string,
  name: string,
  write: (dir: string) => Promise<unknown>,
): Promise<string> {
  const staging = join(await tempDir('drop-'), name);
  await write(staging);
  const dropped = join(inbox, name);
  await rename(staging, dropped);
  return dropped;
}

/** The sheet of that name (but `except`) once its report is written. */
async function doneSheet(watch: RunningWatch, name: string, except?: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const sheets = await recentProgress(watch.ctx.store);
    const sheet = sheets.find((s) => s.name === name && s.sheetId !== except);
    if (sheet?.state === 'done' && sheet.reportDir !== undefined) return sheet;
    if (Date.now() > deadline)
      throw new Error(
        `${name} not done: ${JSON.stringify(sheet)}\nwatch said: ${watch.cli.stderr}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const byName = (orders: SandboxListedOrder[], name: string) =>
  orders.find((o) => o.contact_name === name);

describe('watch with a mapping.json beside the sheet', () => {
  let watch: RunningWatch;
  beforeAll(async () => {
    watch = await startWatch();
  });
  afterAll(async () => {
    await watch.close();
  });

  it('imports a Dutch sheet dropped with its mapping.json, its words applied', async () => {
    const dropped = await dropFolder(watch.inbox, 'agency-gent', (dir) => writeDutchSheet(dir));
    const sheet = await doneSheet(watch, 'orders-nl.csv');
    expect(sheet.counts).toMatchObject({ created: 2, invalid: 1 });

    const orders = await sandbox.api.listOrders();
    expect(byName(orders, 'Jozef Peeters-Maës')).toMatchObject({
      contact_language: 'nl',
      invoice_to: 'salesman',
      is_contact_owner: 'contact',
      property_type: 'Rijwoning / Duplex',
      no_inv_mail: 1,
      postal_code: '9000',
      city: 'Gent',
    });
    expect(byName(orders, 'Jozef Peeters-Maës')?.files.map((f) => f.file_name)).toEqual([
      'plan-1.pdf',
    ]);
    expect(byName(orders, 'Françoise Lefèvre')).toMatchObject({
      contact_language: 'fr',
      invoice_to: 'tenant',
      property_type: 'Studio / Appartement',
      breaker_boxes: 1,
      no_inv_mail: 0,
      inv_mail: 'facturen@example.be',
    });

    const report = sheet.reportDir ?? '';
    const mappingFile = join(dropped, 'mapping.json');
    const summary = JSON.parse(await readFile(join(report, 'summary.json'), 'utf8')) as {
      warnings: string[];
    };
    expect(summary.warnings[0]).toMatch(
      `Read with the mapping ${mappingFile} (beside the sheet): columns "Uw referentie" → reference,`,
    );
    expect(summary.warnings).toContainEqual(
      expect.stringMatching(/^Unknown column ignored: "Opmerkingen".*Did you mean remark\?/),
    );
    // The failed row in the user's own columns, why naming them and the mapping; and the mapping
    // beside it, so that the folder dropped back is read the same way.
    const failed = await readFile(join(report, 'failed', 'orders-nl.csv'), 'utf8');
    const [header, row] = failed.replace(/^\uFEFF/, '').split('\r\n');
    expect(header).toBe(
      `Uw referentie;Type woning;Straat;Huisnummer;Postcode;Gemeente;Contactpersoon;Taal;E-mail contact;E-mail facturatie;Geen factuurmail;Factuur aan;Eigenaar;Producten;Zekeringkasten;Bijlagen;Opmerkingen;order_id;source_row;error;source_sheet`,
    );
    expect(row).toContain(
      `Taal must be one of ""nl"", ""en"", ""fr"", or one of its words under ""values"" in ${mappingFile} (got ""Duits"").`,
    );
    const copied = JSON.parse(
      await readFile(join(report, 'failed', 'mapping.json'), 'utf8'),
    ) as unknown;
    expect(copied).toEqual(DUTCH_MAPPING);

    // The mapping.json stays for the next sheets, and was never taken as a sheet.
    await access(mappingFile);
    const names = (await recentProgress(watch.ctx.store)).map((s) => s.name);
    expect(names).not.toContain('mapping.json');
    expect(watch.cli.stderr).not.toMatch(/mapping\.json (cannot be read|as sheet)/);
  });

  it('reads the failed/ bundle dropped back as the sheet was read: it carries the mapping', async () => {
    const first = await doneSheet(watch, 'orders-nl.csv');
    const failed = join(first.reportDir ?? '', 'failed');
    const fixed = (await readFile(join(failed, 'orders-nl.csv'), 'utf8')).replace(
      ';Duits;',
      ';Nederlands;',
    );
    await dropFolder(watch.inbox, 'fixed', async (dir) => {
      await cp(failed, dir, { recursive: true });
      await writeFile(join(dir, 'orders-nl.csv'), fixed);
    });
    const again = await doneSheet(watch, 'orders-nl.csv', first.sheetId);
    expect(again.counts).toMatchObject({ created: 1, invalid: 0 });
    expect(byName(await sandbox.api.listOrders(), 'Piet Janssens')).toMatchObject({
      contact_language: 'nl',
      invoice_to: 'salesman',
    });
  });

  it('still reads the flat form', async () => {
    const rows = DUTCH_ROWS.slice(0, 1).map((cells) => {
      const row = [...cells];
      // Canonical values: the flat form has no words for them.
      [row[0], row[1], row[6], row[7], row[11], row[12]] = [
        'F-1',
        'Andere',
        'Flat Form',
        'nl',
        'salesman',
        'contact',
      ];
      return row;
    });
    await dropFolder(watch.inbox, 'agency-flat', (dir) =>
      writeDutchSheet(dir, { name: 'flat.csv', rows, mapping: DUTCH_MAPPING.columns }),
    );
    const sheet = await doneSheet(watch, 'flat.csv');
    expect(sheet.counts).toMatchObject({ created: 1 });
    expect(byName(await sandbox.api.listOrders(), 'Flat Form')).toMatchObject({
      contact_language: 'nl',
      invoice_to: 'salesman',
    });
  });

  it('refuses a sheet whose mapping.json nests 6,000 levels deep once, in a line, on the list not taken', async () => {
    const dropped = await dropFolder(watch.inbox, 'agency-deep', async (dir) => {
      await writeDutchSheet(dir, { name: 'deep.csv', mapping: null });
      await put(dir, 'mapping.json', `{"columns":${'{"a":'.repeat(6000)}1${'}'.repeat(6001)}`);
    });
    await watch.cli.waitForStderr(
      /deep\.csv is not taken until its mapping can be used: Mapping .*mapping\.json nests objects or lists more than 64 levels deep/,
    );
    expect(await watch.ctx.notTaken.recent()).toContainEqual(
      expect.objectContaining({ path: join(dropped, 'deep.csv') }),
    );
    expect(watch.cli.stderr).not.toMatch(/RangeError|call stack/);
  });

  it('leaves a sheet whose mapping.json cannot be used in the inbox, and takes it once fixed', async () => {
    const rows = DUTCH_ROWS.slice(0, 1).map((cells) => {
      const row = [...cells];
      [row[0], row[6]] = ['B-1', 'Broken Then Fixed'];
      return row;
    });
    const dropped = await dropFolder(watch.inbox, 'agency-broken', (dir) =>
      writeDutchSheet(dir, { name: 'later.csv', rows, mapping: { values: { taal: {} } } }),
    );
    await watch.cli.waitForStderr(
      /later\.csv is not taken until its mapping can be used: Mapping .*"values" names "taal", which is not an order field/,
    );
    await access(join(dropped, 'later.csv'));
    expect(await watch.ctx.notTaken.recent()).toContainEqual(
      expect.objectContaining({ path: join(dropped, 'later.csv') }),
    );
    await writeFile(join(dropped, 'mapping.json'), JSON.stringify(DUTCH_MAPPING));
    const sheet = await doneSheet(watch, 'later.csv');
    expect(sheet.counts).toMatchObject({ created: 1 });
    expect(byName(await sandbox.api.listOrders(), 'Broken Then Fixed')).toMatchObject({
      contact_language: 'nl',
    });
    // Taken now: the dashboard no longer lists it as left in the inbox.
    expect(await watch.ctx.notTaken.recent()).not.toContainEqual(
      expect.objectContaining({ path: join(dropped, 'later.csv') }),
    );
  });
});

describe('watch --mapping', () => {
  it('exits 1 at start, in one line, when the mapping cannot be read', async () => {
    const dataDir = await tempDir('watch-bad-mapping-');
    const finished = await runInProcess(
      ['watch', '--no-dashboard', '--mapping', join(dataDir, 'nowhere.json')],
      watchEnv(dataDir, 'bad'),
    );
    expect(finished.code).toBe(1);
    expect(finished.stderr).toMatch(
      /^order-importer: Mapping .*nowhere\.json cannot be read: ENOENT/,
    );
    expect(finished.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('maps every sheet with it, over a mapping.json beside one and the config file’s', async () => {
    const dir = await tempDir('watch-flag-');
    const flag = await put(dir, 'flag.json', JSON.stringify(DUTCH_MAPPING));
    await put(dir, 'config-mapping.json', '{ "Taal": "remark" }');
    const config = await put(
      dir,
      'config.json',
      JSON.stringify({ mapping: 'config-mapping.json' }),
    );
    const watch = await startWatch(['--mapping', flag, '--config', config], 'flag');
    try {
      expect(watch.cli.stderr).toContain(`Every sheet is read with the mapping ${flag}.`);
      const rows = DUTCH_ROWS.slice(0, 1).map((cells) => {
        const row = [...cells];
        [row[0], row[6]] = ['G-1', 'Given By Flag'];
        return row;
      });
      // Its own mapping.json is not even read: the flag comes first.
      await dropFolder(watch.inbox, 'agency-flag', (d) =>
        writeDutchSheet(d, { name: 'flagged.csv', rows, mapping: 'not a mapping' }),
      );
      const sheet = await doneSheet(watch, 'flagged.csv');
      expect(sheet.counts).toMatchObject({ created: 1 });
      expect(byName(await sandbox.api.listOrders(), 'Given By Flag')).toMatchObject({
        contact_language: 'nl',
        invoice_to: 'salesman',
      });
    } finally {
      await watch.close();
    }
  });
});

describe('import with a mapping.json beside the sheet', () => {
  it('imports through it, and stops before queueing anything when it cannot be used', async () => {
    const dataDir = await tempDir('import-mapping-');
    const env = watchEnv(dataDir, 'import');
    const good = await tempDir('import-nl-');
    const rows = DUTCH_ROWS.map((cells, i) => {
      const row = [...cells];
      [row[0], row[6]] = [`I-${i + 1}`, `Imported ${i + 1}`];
      return row;
    });
    const { sheet } = await writeDutchSheet(good, { rows });
    const imported = await runInProcess(['import', '--json', sheet], env);
    expect(imported.code, imported.stderr).toBe(2);
    const [summary] = JSON.parse(imported.stdout) as Array<{ created: number; invalid: number }>;
    expect(summary).toMatchObject({ created: 2, invalid: 1 });
    expect(byName(await sandbox.api.listOrders(), 'Imported 2')).toMatchObject({
      contact_language: 'fr',
      invoice_to: 'tenant',
    });

    const bad = await tempDir('import-bad-');
    const broken = await writeDutchSheet(bad, { mapping: { columns: { Taal: 'language' } } });
    const refused = await runInProcess(['import', broken.sheet], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^order-importer: Mapping .*mapping\.json \("columns"\): "Taal" maps to "language", which is not an order field; did you mean contact_language\?/,
    );
    expect(refused.stderr).not.toContain('Queued');
  });
});
