/**
 * A hot-folder sheet is stored once while it is imported: the file moved out of the inbox into
 * its work folder is the copy its rows are read from, not copied again into the data folder's
 * sheet copies.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { Intake } from '../../src/intake/intake.js';
import { startWorkers } from '../../src/workers/start.js';
import { tempDir } from '../helpers/files.js';
import { type TestPipeline, testPipeline, waitForReport } from '../helpers/pipeline.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

const open: TestPipeline[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

/** Every file under these folders whose bytes are `bytes`. */
async function filesHolding(dirs: readonly string[], bytes: Buffer): Promise<string[]> {
  const found: string[] = [];
  for (const dir of dirs) {
    for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const path = join(entry.parentPath, entry.name);
      if ((await readFile(path)).equals(bytes)) found.push(path);
    }
  }
  return found;
}

describe('a sheet taken from the inbox', () => {
  it('is stored once while it is imported: in its work folder', async () => {
    const t = await testPipeline({ workers: false });
    open.push(t);
    const data = await tempDir('stored-once-');
    const intake = new Intake({
      ctx: t.ctx,
      workDir: join(data, 'work'),
      failedDir: join(data, 'failed'),
      stableMs: 100,
      logger: t.config.logger,
    });
    const path = await writeCsvSheet(join(data, 'inbox'), 'orders.csv', [sheetRow(1), sheetRow(2)]);
    const bytes = await readFile(path);
    const result = await intake.take(path);
    expect(result.kind).toBe('queued');
    const sheetId = result.kind === 'queued' ? result.sheetId : '';
    // Queued, its rows not yet read: the one file holding its bytes is the one in work/.
    expect(await filesHolding([data, t.ctx.settings.sheetsDir], bytes)).toEqual([
      join(data, 'work', sheetId, 'orders.csv'),
    ]);
    await startWorkers(t.ctx);
    const done = await waitForReport(t.ctx, sheetId);
    expect(done.counts).toMatchObject({ created: 2 });
  });
});
