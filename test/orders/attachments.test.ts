import { link, mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { wordsFor } from '../../src/language/words.js';
import { AttachmentChecker } from '../../src/orders/attachments.js';
import { put, tempDir } from '../helpers/files.js';

const root = await tempDir('attachments-');
const sheetDir = join(root, 'sheet');
await put(sheetDir, 'plans/a.pdf', 'plan');
await put(sheetDir, 'big.bin', Buffer.alloc(2 * 1024 * 1024 + 1));
await put(root, 'outside.pdf', 'secret');
await mkdir(join(sheetDir, 'folder'));
await symlink(join(root, 'outside.pdf'), join(sheetDir, 'escape.pdf'));
await symlink(join(sheetDir, 'plans', 'a.pdf'), join(sheetDir, 'inside-link.pdf'));
await symlink(join(sheetDir, 'nowhere.pdf'), join(sheetDir, 'dangling.pdf'));
await symlink(join(sheetDir, 'plans'), join(sheetDir, 'linked-plans'));
await symlink(join(root, 'elsewhere'), join(sheetDir, 'linked-away'));
await put(root, 'elsewhere/b.pdf', 'secret too');
await put(sheetDir, '..notes.txt', 'a plain name');
await link(join(root, 'outside.pdf'), join(sheetDir, 'hard.pdf'));

const english = wordsFor('en');
const checker = new AttachmentChecker(sheetDir, 2 * 1024 * 1024);
const message = (path: string) => {
  const result = checker.check(path);
  return result.ok ? null : result.problem.text(english);
};

describe('AttachmentChecker', () => {
  it.each([
    ['a name longer than the file system allows', 'x'.repeat(256)],
    ['a path longer than the file system allows', `${'d/'.repeat(2100)}a.pdf`],
  ])('makes %s a problem of its row, not an error of the sheet', (_what, path) => {
    expect(message(path)).toMatch(/cannot be read \((ENAMETOOLONG)\)/);
  });

  it('accepts a file inside the sheet folder, with its size', () => {
    expect(checker.check('plans/a.pdf')).toEqual({
      ok: true,
      attachment: { path: 'plans/a.pdf', absolute: join(sheetDir, 'plans', 'a.pdf'), bytes: 4 },
    });
  });

  it('accepts a `..` that stays inside, and a name that merely begins with `..`', () => {
    expect(checker.check('plans/../plans/a.pdf').ok).toBe(true);
    expect(checker.check('..notes.txt')).toMatchObject({ ok: true, attachment: { bytes: 12 } });
  });

  it.each([
    ['../outside.pdf', /points outside the sheet's folder/],
    ['plans/../../outside.pdf', /points outside the sheet's folder/],
    ['..', /points outside the sheet's folder/],
    ['.', /points outside the sheet's folder/],
    ['/etc/passwd', /is an absolute path/],
    ['C:/Users/an/plan.pdf', /is an absolute path/],
    ['//server/share/plan.pdf', /is an absolute path/],
    ['escape.pdf', /"escape\.pdf" is a symbolic link: attachments are never read through a link/],
    ['inside-link.pdf', /"inside-link\.pdf" is a symbolic link/],
    ['dangling.pdf', /"dangling\.pdf" is a symbolic link/],
    ['linked-plans/a.pdf', /"linked-plans\/a\.pdf" goes through linked-plans, a symbolic link/],
    ['linked-away/b.pdf', /goes through linked-away, a symbolic link/],
    [
      'plans/missing.pdf',
      /"plans\/missing\.pdf" does not exist beside the sheet: .* dropped together/,
    ],
    ['plans/a.pdf/inner.pdf', /does not exist/],
    ['folder', /is a folder, not a document/],
    [
      'big.bin',
      /is 2 MB \(2097153 bytes\), over the limit of 2 MB \(2097152 bytes\) per attachment \(MAX_ATTACHMENT_MB\)/,
    ],
    ['a\0b', /is not a valid path/],
    [
      'hard.pdf',
      /"hard\.pdf" is a hard link .*: copy the file into the folder instead of linking it\.$/,
    ],
  ])('refuses %j', (path, expected) => {
    expect(message(path)).toMatch(expected);
  });

  it('remembers an answer for the sheet', async () => {
    const cached = new AttachmentChecker(sheetDir, 100);
    expect(cached.check('late.pdf').ok).toBe(false);
    await put(sheetDir, 'late.pdf', 'now here');
    expect(cached.check('late.pdf').ok).toBe(false);
    expect(new AttachmentChecker(sheetDir, 100).check('late.pdf').ok).toBe(true);
  });
});
