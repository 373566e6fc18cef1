import { execFileSync } from 'node:child_process';
import {
  link,
  lstat,
  mkdir,
  readFile,
  realpath,
  rename,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { buffer } from 'node:stream/consumers';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import {
  AttachmentRefused,
  copyInside,
  moveInside,
  openInside,
  AT_ONCE_BYTES,
  plainRelative,
  type ResolvedFolder,
} from '../../src/orders/open-attachment.js';
import { folderOf, onLocalDisk } from '../../src/orders/resolve-folder.js';
import { put, tempDir } from '../helpers/files.js';

const root = await tempDir('open-attachment-');
const sheetDir = join(root, 'sheet');
await put(sheetDir, 'docs/plan.pdf', '%PDF plan');
await put(sheetDir, '..notes.txt', 'notes');
await put(sheetDir, 'empty.txt', '');
await put(sheetDir, 'big.bin', Buffer.alloc(101));
await put(sheetDir, 'large.bin', Buffer.alloc(AT_ONCE_BYTES + 1, 7));
await put(root, 'outside/secret.pdf', 'secret');
await mkdir(join(sheetDir, 'folder'));
await symlink(join(root, 'outside', 'secret.pdf'), join(sheetDir, 'escape.pdf'));
await symlink(join(sheetDir, 'docs', 'plan.pdf'), join(sheetDir, 'inside-link.pdf'));
await symlink(join(root, 'outside'), join(sheetDir, 'linkdir'));
await symlink(join(sheetDir, 'docs'), join(sheetDir, 'docs-link'));
await symlink(join(root, 'nowhere'), join(sheetDir, 'dangling'));
execFileSync('mkfifo', [join(sheetDir, 'pipe.pdf')]);
// The same file under a second name: read through the sheet's folder, it would be read from outside.
await link(join(root, 'outside', 'secret.pdf'), join(sheetDir, 'hard.pdf'));
// The sheet's folder reached through a link of its own is fine: only what lies below it counts.
await symlink(sheetDir, join(root, 'sheet-link'));

/** How the folder is given: not at all (resolved per file), or resolved once, local or not. */
type Way = 'per file' | 'local' | 'pool';
const folderFor = async (dir: string, way: Way): Promise<ResolvedFolder | undefined> =>
  way === 'per file' ? undefined : { real: await realpath(dir), local: way === 'local' };

async function read(dir: string, path: string, way: Way = 'per file'): Promise<string> {
  const folder = await folderFor(dir, way);
  const file = await openInside(dir, path, { maxBytes: 100, ...(folder && { folder }) });
  try {
    return (await buffer(file.stream())).toString();
  } finally {
    await file.close();
  }
}

async function refusal(path: string, way: Way): Promise<AttachmentRefused> {
  const folder = await folderFor(sheetDir, way);
  const error = await openInside(sheetDir, path, { maxBytes: 100, ...(folder && { folder }) }).then(
    async (file) => {
      await file.close();
      return null;
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AttachmentRefused);
  return error as AttachmentRefused;
}

describe.each<Way>(['per file', 'local', 'pool'])('openInside, folder resolved %s', (way) => {
  it('reads a file inside the folder, a name beginning with `..`, and an empty file', async () => {
    expect(await read(sheetDir, 'docs/plan.pdf', way)).toBe('%PDF plan');
    expect(await read(sheetDir, 'docs/../docs/plan.pdf', way)).toBe('%PDF plan');
    expect(await read(sheetDir, '..notes.txt', way)).toBe('notes');
    expect(await read(sheetDir, 'empty.txt', way)).toBe('');
    expect(await read(join(root, 'sheet-link'), 'docs/plan.pdf', way)).toBe('%PDF plan');
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
    [
      'hard.pdf',
      'hard-link',
      /"hard\.pdf" is a hard link .*: copy the file into the folder instead of linking it\.$/,
    ],
  ])('refuses %j (%s)', async (path, kind, message) => {
    const error = await refusal(path, way);
    expect(error.kind).toBe(kind);
    expect(error.message).toMatch(message);
    expect(error.retryable).toBe(false);
  });

  it('gives the same bytes whole as streamed, a file past AT_ONCE_BYTES too', async () => {
    const folder = await folderFor(sheetDir, way);
    for (const path of ['docs/plan.pdf', 'empty.txt', 'big.bin', 'large.bin']) {
      const file = await openInside(sheetDir, path, folder && { folder });
      try {
        const whole = await file.bytes();
        const streamed = await buffer(file.stream());
        // Compared as bytes: a deep equality walks a 256 KiB buffer element by element (seconds).
        expect(whole.length).toBe(streamed.length);
        expect(Buffer.compare(whole, streamed)).toBe(0);
      } finally {
        await file.close();
      }
    }
  });

  it('says ENOENT of a file that is not there', async () => {
    const folder = await folderFor(sheetDir, way);
    await expect(openInside(sheetDir, 'docs/none.pdf', folder && { folder })).rejects.toMatchObject(
      { code: 'ENOENT' },
    );
  });
});

describe('a folder resolved once (folderOf)', () => {
  it.each([true, false])(
    'reads through the remembered real path, and refuses what lies outside it (local: %s)',
    async (local) => {
      const dir = await tempDir('real-root-');
      await put(join(dir, 'sheet'), 'docs/plan.pdf', '%PDF plan');
      await put(join(dir, 'elsewhere'), 'docs/plan.pdf', 'someone else');
      const folders = folderOf();
      const path = join(dir, 'sheet');
      const remembered = { ...(await folders(path)), local };
      const opened = await openInside(path, 'docs/plan.pdf', { folder: remembered });
      expect((await opened.bytes()).toString()).toBe('%PDF plan');
      await opened.close();
      // The sheet's folder swapped for a link to another: opened through the remembered real
      // path, the link is seen on the way and nothing of the other folder is read.
      await rename(path, join(dir, 'moved'));
      await symlink(join(dir, 'elsewhere'), path);
      expect((await folders(path)).real).toBe(remembered.real);
      await expect(openInside(path, 'docs/plan.pdf', { folder: remembered })).rejects.toMatchObject(
        { kind: 'link' },
      );
    },
  );

  it('forgets a folder that was not there, and forgets all past its limit', async () => {
    const dir = await tempDir('real-root-');
    const folders = folderOf(2);
    await expect(folders(join(dir, 'later'))).rejects.toMatchObject({ code: 'ENOENT' });
    await mkdir(join(dir, 'later'));
    expect((await folders(join(dir, 'later'))).real).toBe(join((await folders(dir)).real, 'later'));
    await mkdir(join(dir, 'a'));
    await folders(join(dir, 'a'));
    // Past two folders the first is resolved again: a folder replaced meanwhile is seen.
    await rename(join(dir, 'later'), join(dir, 'gone'));
    await expect(folders(join(dir, 'later'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it.skipIf(process.platform !== 'linux').each([
    [true, 'before'],
    [false, 'after!'],
  ])(
    'with local %s, reads a small file when opening it (it shows what was there %s)',
    async (local, when) => {
      const dir = await tempDir('at-once-');
      await put(dir, 'plan.pdf', 'before');
      const folder = { real: await realpath(dir), local };
      const file = await openInside(dir, 'plan.pdf', { folder });
      // Rewritten in place once opened: a file already read keeps what it read.
      await writeFile(join(dir, 'plan.pdf'), 'after!');
      expect((await file.bytes()).toString()).toBe(when);
      await file.close();
    },
  );

  it('calls a disk folder local and procfs not (Linux); nothing is local elsewhere', async () => {
    const linux = process.platform === 'linux';
    expect(await onLocalDisk(await realpath(sheetDir))).toBe(linux);
    expect(await onLocalDisk('/proc')).toBe(false);
    expect((await folderOf()(sheetDir)).local).toBe(linux);
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

/** Mounts a file system not known to be local (ramfs: a stand-in for NFS or sshfs) at `dir`. */
function mountForeign(dir: string): void {
  execFileSync('mount', ['-t', 'ramfs', 'none', dir], { stdio: 'ignore' });
}

/** Whether this test may mount (Linux, as root): tried once, on a folder of its own. */
async function mayMount(): Promise<boolean> {
  if (process.platform !== 'linux') return false;
  const probe = await tempDir('mount-probe-');
  try {
    mountForeign(probe);
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    // Not root, or no mount here: the tests that need one are skipped, and say so.
    return false;
  }
  execFileSync('umount', [probe]);
  return true;
}
const canMount = await mayMount();

describe.skipIf(!canMount)('a share mounted inside a local folder (Linux, as root)', () => {
  it.each([
    ['before', 'mounted before the folder is resolved'],
    ['after', 'mounted after'],
  ])('reads a file on it through the pool, never at once (%s: %s)', async (when) => {
    const dir = await tempDir('mounted-');
    const share = join(dir, 'share');
    await mkdir(share);
    const folders = folderOf();
    if (when === 'after') expect((await folders(dir)).local).toBe(true);
    mountForeign(share);
    try {
      await put(share, 'plan.pdf', 'before');
      const folder = await folders(dir);
      const file = await openInside(dir, 'share/plan.pdf', { folder });
      // Rewritten in place once opened: read through the pool, the file gives what it holds
      // then; read at once (a hung server would stall the process), what it held at opening.
      await writeFile(join(share, 'plan.pdf'), 'after!');
      expect((await file.bytes()).toString()).toBe('after!');
      await file.close();
    } finally {
      execFileSync('umount', [share]);
    }
  });
});
