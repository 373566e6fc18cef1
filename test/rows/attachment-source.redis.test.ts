import { rename, symlink } from 'node:fs/promises';
import { basename, join } from 'node:path';

import { Redis } from 'ioredis';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { openAttachment } from '../../src/rows/attachment-source.js';
import { Keys } from '../../src/store/keys.js';
import { SheetStore } from '../../src/store/sheet-store.js';
import { put, tempDir } from '../helpers/files.js';
import { type TestRedis, useTestRedis } from '../helpers/redis.js';
import { knownError } from '../helpers/known-error.js';

let redis: TestRedis;
let client: Redis;
let keys: Keys;
beforeAll(async () => {
  redis = await useTestRedis();
  client = new Redis(redis.url);
  keys = new Keys(`{${redis.prefix}}`);
});
afterAll(async () => {
  client.disconnect();
  await redis.cleanup();
});

/**
 * What openAttachment needs of a context: a sheet store in Redis that knows these sheets (a
 * store of its own, so that each test resolves its folders afresh), and the size limit.
 */
async function context(sheets: Record<string, string>, maxAttachmentBytes = 1000) {
  const store = new SheetStore(client, keys);
  for (const [sheetId, path] of Object.entries(sheets)) {
    await store.create({
      sheetId,
      path,
      name: basename(path),
      sha256: `sha-${sheetId}`,
      connectionId: 'c1',
      apiBaseUrl: 'http://api',
      sandbox: false,
      allowDuplicates: false,
      startedAt: new Date().toISOString(),
    });
  }
  return { store, settings: { maxAttachmentBytes } };
}

const text = async (ctx: Parameters<typeof openAttachment>[0], path: string) => {
  const file = await openAttachment(ctx, 's1', path);
  try {
    return (await file.bytes()).toString();
  } finally {
    await file.close();
  }
};

describe('openAttachment', () => {
  it("reads from the sheet's own folder, resolved once for all its files", async () => {
    const dir = await tempDir('attachment-source-');
    await put(join(dir, 'inbox'), 'docs/a.pdf', 'plan a');
    await put(join(dir, 'inbox'), 'docs/b.pdf', 'plan b');
    await put(join(dir, 'elsewhere'), 'docs/b.pdf', 'someone else');
    const ctx = await context({ s1: join(dir, 'inbox', 'orders.csv') });
    expect(await text(ctx, 'docs/a.pdf')).toBe('plan a');
    // The folder swapped for a link to another after the first file: the folder as resolved
    // then is where the next file is looked for, and the link on the way refuses it.
    await rename(join(dir, 'inbox'), join(dir, 'moved'));
    await symlink(join(dir, 'elsewhere'), join(dir, 'inbox'));
    await expect(text(ctx, 'docs/b.pdf')).rejects.toMatchObject({ kind: 'link' });
  });

  it('says which sheet has no record, and refuses a file over the size limit', async () => {
    const dir = await tempDir('attachment-source-');
    await put(dir, 'big.pdf', Buffer.alloc(11));
    const ctx = await context({ s1: join(dir, 'orders.csv') }, 10);
    await expect(openAttachment(ctx, 's2', 'big.pdf')).rejects.toThrow(
      knownError('Refused', 'sheet.gone'),
    );
    await expect(openAttachment(ctx, 's2', 'big.pdf')).rejects.toThrow(/sheet s2 has no record/);
    await expect(openAttachment(ctx, 's1', 'big.pdf')).rejects.toMatchObject({
      kind: 'too-large',
    });
  });
});

describe('openAttachment, a folder reached through a link that is pointed elsewhere', () => {
  it("reads a later sheet's files from where its folder leads now, not from where it once led", async () => {
    // `today` leads to each day's folder in turn; a worker runs for days. Each sheet's files are
    // in the folder its path leads to when it is imported: never the day before's file of the
    // same name (another order's photo uploaded to this one).
    const dir = await tempDir('attachment-source-');
    await put(join(dir, 'day1'), 'photo.jpg', 'yesterday');
    await put(join(dir, 'day2'), 'photo.jpg', 'today');
    await symlink(join(dir, 'day1'), join(dir, 'today'));
    const sheet = join(dir, 'today', 'orders.csv');
    const ctx = await context({ s1: sheet, s2: sheet });
    const read = async (sheetId: string) => {
      const file = await openAttachment(ctx, sheetId, 'photo.jpg');
      try {
        return (await file.bytes()).toString();
      } finally {
        await file.close();
      }
    };
    expect(await read('s1')).toBe('yesterday');
    await symlink(join(dir, 'day2'), join(dir, 'today.next'));
    await rename(join(dir, 'today.next'), join(dir, 'today'));
    expect(await read('s2')).toBe('today');
  });
});
