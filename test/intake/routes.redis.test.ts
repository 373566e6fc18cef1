/**
 * One inbox, several offices: a sheet is taken by the intake of the connection whose subfolder it
 * lies in; one in no office's folder stays where it is and is told once; an intake a crash
 * interrupted is finished by its own connection's intake only.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Context } from '../../src/context.js';
import { Intake } from '../../src/intake/intake.js';
import { RoutedIntake } from '../../src/intake/routes.js';
import { tempDir } from '../helpers/files.js';
import { type TestPipeline, testPipeline, waitForReport } from '../helpers/pipeline.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

let t: TestPipeline;
let data: string;
/** Another office's context: the same stores, another connection (its intake only looks). */
let other: Context;
beforeAll(async () => {
  t = await testPipeline();
  data = await tempDir('routes-');
  other = { ...t.ctx, connection: { ...t.ctx.connection, id: 'b0b0b0b0b0b0b0b0', name: 'brugge' } };
});
afterAll(() => t.close());

function intakeOf(ctx: Context): Intake {
  return new Intake({
    ctx,
    workDir: join(data, 'work'),
    failedDir: join(data, 'failed'),
    stableMs: 100,
    logger: t.config.logger,
  });
}

describe('RoutedIntake', () => {
  it('takes a sheet with the intake of the folder it lies in, and no other', async () => {
    const inbox = join(data, 'inbox-1');
    const routed = new RoutedIntake(
      [
        { name: 'gent', dir: join(inbox, 'gent'), intake: intakeOf(t.ctx) },
        { name: 'brugge', dir: join(inbox, 'brugge'), intake: intakeOf(other) },
      ],
      inbox,
    );
    expect(routed.routeOf(join(inbox, 'gent', 'a.csv'))?.name).toBe('gent');
    expect(routed.routeOf(join(inbox, 'gent', 'batch', 'a.csv'))?.name).toBe('gent');
    expect(routed.routeOf(join(inbox, 'brugge', 'a.csv'))?.name).toBe('brugge');
    expect(routed.routeOf(join(inbox, 'gent2', 'a.csv'))).toBeUndefined();
    expect(routed.routeOf(join(inbox, 'gent'))).toBeUndefined();
    expect(routed.routeOf(join(inbox, 'a.csv'))).toBeUndefined();

    const path = await writeCsvSheet(join(inbox, 'gent'), 'orders.csv', [sheetRow(1)]);
    const result = await routed.take(path, undefined, inbox);
    expect(result.kind).toBe('queued');
    const sheetId = result.kind === 'queued' ? result.sheetId : '';
    expect((await t.ctx.store.get(sheetId))?.connectionId).toBe(t.ctx.connection.id);
    const journal = JSON.parse(
      await readFile(join(data, 'work', sheetId, '.intake.json'), 'utf8'),
    ) as { connection?: string };
    expect(journal.connection).toBe(t.ctx.connection.id);
    expect((await waitForReport(t.ctx, sheetId)).counts.created).toBe(1);
  });

  it('leaves a sheet in no office’s folder where it is, naming the folders, told once', async () => {
    const inbox = join(data, 'inbox-2');
    const routed = new RoutedIntake(
      [
        { name: 'gent', dir: join(inbox, 'gent'), intake: intakeOf(t.ctx) },
        { name: 'brugge', dir: join(inbox, 'west', 'brugge'), intake: intakeOf(other) },
      ],
      inbox,
    );
    for (const path of [
      await writeCsvSheet(inbox, 'stray.csv', [sheetRow(2)]),
      await writeCsvSheet(join(inbox, 'oost'), 'lost.csv', [sheetRow(3)]),
    ]) {
      const first = await routed.take(path, undefined, inbox);
      expect(first.kind).toBe('refused');
      const why = first.kind === 'refused' ? first.why : '';
      expect(why).toMatch(/ is in no office's folder, so it is not imported/);
      expect(why).toContain('gent/ (gent), west/brugge/ (brugge)');
      expect(await routed.take(path, undefined, inbox)).toEqual({
        kind: 'skipped',
        why: 'refused before',
      });
      expect(await readFile(path, 'utf8')).toContain('R-');
      expect((await t.ctx.notTaken.recent()).map((n) => n.path)).toContain(path);
    }
    expect(await routed.take(join(inbox, 'notes.txt'), undefined, inbox)).toEqual({
      kind: 'skipped',
      why: 'not a sheet',
    });
  });

  it('finishes an interrupted intake only with the connection that began it', async () => {
    const inbox = join(data, 'inbox-3');
    const source = await writeCsvSheet(inbox, 'late.csv', [sheetRow(4)]);
    const work = join(data, 'work', '20261126-000000-dddddd');
    await mkdir(work, { recursive: true });
    const journal = { source, files: [], queued: false, connection: t.ctx.connection.id };
    await writeFile(join(work, '.intake.json'), JSON.stringify(journal));
    await writeFile(join(work, 'late.csv'), await readFile(source));

    const byOther = await intakeOf(other).recover();
    expect(byOther.finished).toEqual([]);
    expect(byOther.stranded).toEqual([]);
    expect(await readdir(work)).toEqual(['.intake.json', 'late.csv']);

    const byOwn = await intakeOf(t.ctx).recover();
    expect(byOwn.finished).toEqual(['20261126-000000-dddddd']);
    expect((await t.ctx.store.get('20261126-000000-dddddd'))?.connectionId).toBe(
      t.ctx.connection.id,
    );
  });
});
