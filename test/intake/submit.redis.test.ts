import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';

import { afterEach, expect, it } from 'vitest';

import { submitSheet } from '../../src/intake/submit.js';
import { tempDir } from '../helpers/files.js';
import { type TestPipeline, testPipeline } from '../helpers/pipeline.js';
import { sheetRow, writeCsvSheet } from '../helpers/sheets.js';

const open: TestPipeline[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

it('resumes an import of an older version whose record lands a moment after its registration (a rolling upgrade)', async () => {
  const t = await testPipeline({ workers: false });
  open.push(t);
  const { ctx } = t;
  const path = await writeCsvSheet(await tempDir(), 'race.csv', [sheetRow(1), sheetRow(2)]);
  const sha256 = createHash('sha256')
    .update(await readFile(path))
    .digest('hex');
  const content = `${ctx.connection.id}|${sha256}`;
  // An older-version process: claimSha, then (a moment later) its record.
  const other = '20260101-000000-0ld0ld';
  await t.redis.client.hsetnx(ctx.keys.bySha, content, other);
  const recordLater = new Promise<void>((done) => {
    setTimeout(() => {
      void ctx.store
        .create({
          sheetId: other,
          path,
          name: basename(path),
          sha256,
          connectionId: ctx.connection.id,
          apiBaseUrl: ctx.connection.apiBaseUrl,
          sandbox: ctx.connection.sandbox,
          allowDuplicates: false,
          startedAt: new Date().toISOString(),
        })
        .then(done);
    }, 200);
  });
  const submitted = await submitSheet(ctx, path);
  await recordLater;
  // That import, resumed: not a second import of the same bytes.
  expect(submitted).toEqual({ sheetId: other, resumed: true });
  expect(await ctx.store.findBySha(content)).toBe(other);
});
