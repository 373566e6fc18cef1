import { execFileSync } from 'node:child_process';
import { lstat, mkdir, readFile, rename, symlink } from 'node:fs/promises';
import { buffer } from 'node:stream/consumers';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import {
  AttachmentRefused,
  copyInside,
  moveInside,
  openInside,
  plainRelative,
  realRootOf,
} from '../../src/orders/open-attachment.js';
import { put, tempDir } from '../helpers/files.js';

const root = await tempDir('open-attachment-');
const sheetDir = join(root, 'sheet');
await put(sheetDir, 'docs/plan.pdf', '%PDF plan');
await put(sheetDir, '..notes.txt', 'notes');
await put(sheetDir, 'empty.txt', '');
await put(sheetDir, 'big.bin', Buffer.alloc(101));
await put(root, 'outside/secret.pdf', 'secret');
await mkdir(join(sheetDir, 'folder'));
await symlink(join(root, 'outside', 'secret.pdf'), join(sheetDir, 'escape.pdf'));
await symlink(join(sheetDir, 'docs', 'plan.pdf'), join(sheetDir, 'inside-link.pdf'));
await symlink(join(root, 'outside'), join(sheetDir, 'linkdir'));
await symlink(join(sheetDir, 'docs'), join(sheetDir, 'docs-link'));
await symlink(join(root, 'nowhere'), join(sheetDir, 'dangling'));
execFileSync('mkfifo', [join(sheetDir, 'pipe.pdf')]);
// The sheet's folder reached through a link of its own is fine: only what lies below it counts.
await symlink(sheetDir, join(root, 'sheet-link'));

async function read(dir: string, path: string): Promise<string> {
  const file = await openInside(dir, path, { maxBytes: 100 });
  try {
    return (await buffer(file.stream())).toString();
  } finally {
    await file.close();
  }
}

async function refusal(path: string): Promise<AttachmentRefused> {
  const error = await openInside(sheetDir, path, { maxBytes: 100 }).then(
    async (file) => {
      await file.close();
      return null;
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AttachmentRefused);
  return error as AttachmentRefused;
}

describe('openInside', () => {
  it('reads a file inside the folder, a name beginning with `..`, and an empty file', async () => {
    expect(await read(sheetDir, 'docs/plan.pdf')).toBe('%PDF plan');
    expect(await read(sheetDir, 'docs/../docs/plan.pdf')).toBe('%PDF plan');
    expect(await read(sheetDir, '..notes.txt')).toBe('notes');
    expect(await read(sheetDir, 'empty.txt')).toBe('');
    expect(await read(join(root, 'sheet-link'), 'docs/plan.pdf')).toBe('%PDF plan');
  });

  it.each([
    ['escape.pdf', 'link', /"escape\.pdf" is a symbolic link/],
    ['inside-link.pdf', 'link', /"inside-link\.pdf" is a symbolic link/],
    ['linkdir/secret.pdf', 'link', /goes through linkdir, a symbolic link/],
    ['docs-link/plan.pdf', 'link', /goes through docs-link, a symbolic link/],
    ['dangling/plan.pdf', 'link', /goes through dangling, a symbolic link/],
    ['docs-link/none.pdf', 'link', /goes through docs-link, a symbolic link/],
    ['../outside/secret.pdf', 'outside', /points outside the sheet's folder/],
    ['/etc/passwd', 'absolute', /is an absolute path/],
    ['folder', 'not-file', /is a folder, not a document/],
    ['pipe.pdf', 'not-file', /is not a regular file/],
    ['big.bin', 'too-large', /is 101 bytes, over the limit of 100 bytes/],
  ])('refuses %j (%s)', async (path, kind, message) => {
    const error = await refusal(path);
    expect(error.kind).toBe(kind);
    expect(error.message).toMatch(message);
    expect(error.retryable).toBe(false);
  });

  it('gives the same bytes whole as streamed', async () => {
    for (const path of ['docs/plan.pdf', 'empty.txt', 'big.bin']) {
      const file = await openInside(sheetDir, path);
      try {
        expect(await file.bytes()).toEqual(await buffer(file.stream()));
      } finally {
        await file.close();
      }
    }
  });

  it('says ENOENT of a file that is not there', async () => {
    await expect(openInside(sheetDir, 'docs/none.pdf')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('openInside with the real folder resolved once (realRootOf)', () => {
  it('reads through the remembered real path, and refuses what lies outside it', async () => {
    const dir = await tempDir('real-root-');
    await put(join(dir, 'sheet'), 'docs/plan.pdf', '%PDF plan');
    await put(join(dir, 'elsewhere'), 'docs/plan.pdf', 'someone else');
    const realRoot = realRootOf();
    const folder = join(dir, 'sheet');
    const remembered = await realRoot(folder);
    const opened = await openInside(folder, 'docs/plan.pdf', { realRoot: remembered });
    expect((await opened.bytes()).toString()).toBe('%PDF plan');
    await opened.close();
    // The sheet's folder swapped for a link to another: opened through the remembered real path,
    // the link is seen on the way and nothing of the other folder is read.
    await rename(folder, join(dir, 'moved'));
    await symlink(join(dir, 'elsewhere'), folder);
    expect(await realRoot(folder)).toBe(remembered);
    await expect(
      openInside(folder, 'docs/plan.pdf', { realRoot: remembered }),
    ).rejects.toMatchObject({ kind: 'link' });
  });

  it('forgets a folder that was not there, and forgets all past its limit', async () => {
    const dir = await tempDir('real-root-');
    const realRoot = realRootOf(2);
    await expect(realRoot(join(dir, 'later'))).rejects.toMatchObject({ code: 'ENOENT' });
    await mkdir(join(dir, 'later'));
    expect(await realRoot(join(dir, 'later'))).toBe(join(await realRoot(dir), 'later'));
    await mkdir(join(dir, 'a'));
    await realRoot(join(dir, 'a'));
    // Past two folders the first is resolved again: a folder replaced meanwhile is seen.
    await rename(join(dir, 'later'), join(dir, 'gone'));
    await expect(realRoot(join(dir, 'later'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('moveInside and copyInside', () => {
  it('move and copy a regular file, and neither a link nor what lies behind one', async () => {
    const from = await tempDir('move-inside-');
    const to = await tempDir('move-inside-to-');
    await put(from, 'docs/a.pdf', 'a');
    await put(from, 'docs/b.pdf', 'b');
    await symlink(join(root, 'outside', 'secret.pdf'), join(from, 'docs', 'link.pdf'));
    await symlink(join(root, 'outside'), join(from, 'linkdir'));

    await moveInside(from, 'docs/a.pdf', join(to, 'docs', 'a.pdf'));
    await copyInside(from, 'docs/b.pdf', join(to, 'docs', 'b.pdf'));
    expect(await readFile(join(to, 'docs', 'a.pdf'), 'utf8')).toBe('a');
    await expect(lstat(join(from, 'docs', 'a.pdf'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await readFile(join(from, 'docs', 'b.pdf'), 'utf8')).toBe('b');
    for (const path of ['docs/link.pdf', 'linkdir/secret.pdf']) {
      await expect(moveInside(from, path, join(to, path))).rejects.toMatchObject({ kind: 'link' });
      await expect(copyInside(from, path, join(to, path))).rejects.toMatchObject({ kind: 'link' });
    }
    expect(await readFile(join(root, 'outside', 'secret.pdf'), 'utf8')).toBe('secret');
    expect((await lstat(join(from, 'docs', 'link.pdf'))).isSymbolicLink()).toBe(true);
  });
});

describe('plainRelative', () => {
  it.each([
    ['docs/plan.pdf', 'docs/plan.pdf'],
    ['./docs//plan.pdf', 'docs/plan.pdf'],
    ['a/../b.pdf', 'b.pdf'],
    ['..notes.txt', '..notes.txt'],
    ['docs/..x/y.pdf', 'docs/..x/y.pdf'],
  ])('makes %j plain: %j', (path, plain) => {
    expect(plainRelative(path)).toBe(plain);
  });

  it.each(['..', '.', '../x', 'a/../../x', '/x', 'C:/x', 'c:x', '//server/x', 'a\0b'])(
    'refuses %j',
    (path) => {
      expect(() => plainRelative(path)).toThrow(AttachmentRefused);
    },
  );
});
