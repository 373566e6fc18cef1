/**
 * An attachment that passed validation but is refused when its row uploads it (a link put in its
 * place since, a file grown past the limit): its row's result says why in the office's words
 * (docs/design.md "Language"), the same words validation would have used, and the English as
 * before. Real Redis, the sandbox over HTTP, files on disk.
 */
import { link, symlink } from 'node:fs/promises';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import type { Speech } from '../../src/language/languages.js';
import { wordsFor } from '../../src/language/words.js';
import type { RowJobData } from '../../src/rows/row-data.js';
import { runRowJob } from '../../src/rows/row-job.js';
import { put, tempDir } from '../helpers/files.js';
import { validOrder } from '../helpers/orders.js';
import { recordTestSheet, type TestPipeline, testPipeline } from '../helpers/pipeline.js';
import { rowJobHandle } from '../helpers/row-job.js';

const open: TestPipeline[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

type Swap = 'link' | 'hard-link' | 'too-large';

/** A row naming docs/plan.pdf, which was a plain small file when validated and is now `swap`. */
async function refusedRow(t: TestPipeline, sheetId: string, swap: Swap): Promise<RowJobData> {
  const dir = await tempDir('upload-refused-');
  const outside = await put(await tempDir('upload-refused-outside-'), 'plan.pdf', '%PDF other');
  await put(dir, 'docs/.keep', '');
  const plan = join(dir, 'docs', 'plan.pdf');
  if (swap === 'link') await symlink(outside, plan);
  else if (swap === 'hard-link') await link(outside, plan);
  else await put(dir, 'docs/plan.pdf', `%PDF ${'x'.repeat(4096)}`);
  await recordTestSheet(
    t.ctx.store,
    sheetId,
    await put(dir, 'orders.csv', 'x'),
    t.ctx.settings.sheetsDir,
    t.config.connection.id,
  );
  return {
    connectionId: t.config.connection.id,
    sheetId,
    row: 1,
    line: 2,
    key: null,
    order: validOrder(),
    attachments: [{ path: 'docs/plan.pdf', bytes: 9 }],
  };
}

/** The row's result when the office reads `language`. */
async function refusedError(language: Speech, swap: Swap): Promise<string> {
  const t = await testPipeline({ workers: false });
  open.push(t);
  const sheetId = `refused-${language}-${swap}`;
  const data = await refusedRow(t, sheetId, swap);
  const ctx = {
    ...t.ctx,
    words: wordsFor(language),
    settings: { ...t.ctx.settings, maxAttachmentBytes: 1024 },
  };
  await runRowJob(ctx, rowJobHandle(data, 1));
  const [outcome] = await t.ctx.store.outcomes(sheetId, [1]);
  expect(outcome?.status).toBe('failed');
  return outcome?.error ?? '';
}

describe('an attachment refused when its row uploads it', () => {
  it('is said in English as before', async () => {
    expect(await refusedError('en', 'link')).toMatch(
      /^order \d+ exists, but 1 of its files could not be attached: "docs\/plan\.pdf" is a symbolic link: attachments are never read through a link; put the file itself there\. Drop the row back/,
    );
  });

  it.each([
    [
      'link',
      /“docs\/plan\.pdf” is een symbolische koppeling: bijlagen worden nooit via een koppeling gelezen/,
    ],
    ['hard-link', /“docs\/plan\.pdf” is een vaste koppeling/],
    ['too-large', /“docs\/plan\.pdf” is 0 MB \(4101 bytes\)/],
  ] as const)('is said in Dutch for a Dutch office (%s)', async (swap, dutch) => {
    const error = await refusedError('nl', swap);
    expect(error).toMatch(/^Opdracht \d+ bestaat, maar 1 bijlage kon niet toegevoegd worden: /);
    expect(error).toMatch(dutch);
    expect(error).not.toMatch(/symbolic link|hard link|bytes, over the limit/);
  });

  it('is a catalogue text of its own in the pseudo-language', async () => {
    const error = await refusedError('qps', 'link');
    // Inside the row's text, the refusal is marked on its own: not English carried into it.
    expect(error).toMatch(
      /^⟦order \d+ exists, .*: ⟦"docs\/plan\.pdf" is a symbolic link: [^⟦⟧]*⟧\. Drop/,
    );
  });
});
