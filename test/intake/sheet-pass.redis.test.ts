/**
 * The hot folder's one pass over a sheet (intake/sheet-pass.ts) is made in the inbox, before the
 * sheet moves: a sheet written to after that pass — even to the same size, its time set back —
 * is read anew, so that what is queued (its hash, its row count, what its report echoes) is the
 * bytes the work folder holds, never an earlier version's.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { afterEach, describe, expect, it } from 'vitest';

import { Intake } from '../../src/intake/intake.js';
import { echoFilePath } from '../../src/store/taken-sheet.js';
import { put, tempDir } from '../helpers/files.js';
import { type TestPipeline, testPipeline } from '../helpers/pipeline.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

const open: TestPipeline[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

/** A whole second: restored exactly by utimes, as a tool that sets the time back would. */
const SECOND = 1_700_000_000;

/** The echo files written so far under `sheetsDir`, waited for until there is one. */
async function echoesWritten(sheetsDir: string): Promise<string[]> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const found = await readdir(sheetsDir, { recursive: true }).catch(() => []);
    const echoes = found.filter((name) => name.endsWith('rows.echo'));
    if (echoes.length > 0) return echoes;
    await sleep(20);
  }
  throw new Error('no pass over the sheet was made');
}

describe('a sheet written to after its pass in the inbox', () => {
  it('is read anew before it is taken: the bytes queued are the ones it holds', async () => {
    const t = await testPipeline({ workers: false });
    open.push(t);
    const data = await tempDir('sheet-pass-');
    const inbox = join(data, 'inbox');
    const intake = new Intake({
      ctx: t.ctx,
      workDir: join(data, 'work'),
      failedDir: join(data, 'failed'),
      stableMs: 100,
      logger: t.config.logger,
    });
    const path = await writeCsvSheet(inbox, 'orders.csv', [
      sheetRow(1, { files: 'docs/late.pdf' }),
      sheetRow(2),
    ]);
    await utimes(path, SECOND, SECOND);
    // Its attachment is not there yet: the intake waits for it, its pass made.
    const taking = intake.take(path);
    const { sheetsDir } = t.ctx.settings;
    expect(await echoesWritten(sheetsDir)).toHaveLength(1);
    const before = await readFile(path, 'utf8');
    const after = before.replace('Contact 1', 'Kontakt 1');
    expect(after.length).toBe(before.length);
    await writeFile(path, after);
    await utimes(path, SECOND, SECOND);
    await put(inbox, 'docs/late.pdf', '%PDF late');

    const result = await taking;
    expect(result.kind).toBe('queued');
    const sheetId = result.kind === 'queued' ? result.sheetId : '';
    const work = join(data, 'work', sheetId);
    expect(await readFile(join(work, 'orders.csv'), 'utf8')).toBe(after);
    expect(await readFile(join(work, 'docs', 'late.pdf'), 'utf8')).toBe('%PDF late');
    const record = await t.ctx.store.get(sheetId);
    expect(record?.sha256).toBe(createHash('sha256').update(after).digest('hex'));
    const echo = await readFile(echoFilePath(sheetsDir, sheetId), 'utf8');
    expect(echo).toContain('Kontakt 1');
    expect(echo).not.toContain('Contact 1');
    // The first pass, for a sheet not taken, left nothing behind.
    expect(await readdir(sheetsDir)).toEqual([sheetId]);
  });
});
