/**
 * A fault of the machine (docs/design.md "Outages, said once"): a folder it may not write, a full
 * disk, too many open files — one plain line naming the folder and what to do, never a stack.
 */
import { describe, expect, it } from 'vitest';

import { UserError } from '../../src/errors.js';
import { machineFault, writingIn } from '../../src/machine-fault.js';
import { errorMessage } from '../../src/cli/error-line.js';
import { wordsFor } from '../../src/language/words.js';

/** An error as Node's fs gives it. */
function fsError(code: string, syscall: string, path?: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`${code}: something, ${syscall}`);
  error.code = code;
  error.syscall = syscall;
  if (path !== undefined) error.path = path;
  return error;
}

describe('a fault of the machine', () => {
  it('a folder it may not make: the folder, and what to do', () => {
    const said = machineFault(fsError('EACCES', 'mkdir', '/srv/importer/inbox'));
    expect(said).toBeInstanceOf(UserError);
    expect(said?.message).toContain('/srv/importer/inbox');
    expect(said?.message).toMatch(/may not write/);
    expect(said?.message).not.toMatch(/\n|^\s+at /m);
  });

  it('a file it may not open: the folder it is in', () => {
    const said = machineFault(fsError('EPERM', 'open', '/srv/importer/data/installation.json'));
    expect(said?.values?.folder).toBe('/srv/importer/data');
  });

  it('a full disk while writing (no path of its own): the folder written in', async () => {
    const work = Promise.reject(fsError('ENOSPC', 'write'));
    const error = await writingIn('/mnt/full/data/sheets/x.csv', () => work).catch(
      (e: unknown) => e,
    );
    const said = machineFault(error);
    expect(said?.message).toMatch(
      /\/mnt\/full\/data\/sheets.*full|full.*\/mnt\/full\/data\/sheets/,
    );
  });

  it('too many open files: the limit to raise', () => {
    const said = machineFault(fsError('EMFILE', 'open', '/srv/importer/work/a.pdf'));
    expect(said?.message).toMatch(/too many open files/i);
    expect(said?.message).toMatch(/LimitNOFILE|ulimit/);
  });

  it('said in Dutch and French from the catalogue', () => {
    const said = machineFault(fsError('ENOSPC', 'copyfile', '/mnt/vol/rapporten/r.csv'));
    if (said === undefined) throw new Error('not a machine fault');
    expect(errorMessage(said, wordsFor('nl'))).toContain('/mnt/vol/rapporten');
    expect(errorMessage(said, wordsFor('fr'))).toContain('/mnt/vol/rapporten');
    expect(errorMessage(said, wordsFor('nl'))).not.toBe(said.message);
  });

  it("the embedded sandbox's database on a full disk: its folder and DATA_DIR, in every language", async () => {
    // better-sqlite3's error: a code, no path.
    const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    const error = await writingIn('/srv/data/sandbox/sandbox.sqlite', () =>
      Promise.reject(full),
    ).catch((e: unknown) => e);
    const said = machineFault(error);
    if (said === undefined) throw new Error('not a machine fault');
    for (const language of ['en', 'nl', 'fr'] as const) {
      const line = errorMessage(said, wordsFor(language));
      expect(line).toContain('/srv/data/sandbox');
      expect(line).toContain('SQLITE_FULL');
      expect(line).toContain('DATA_DIR');
    }
  });

  it('anything else is not one', () => {
    expect(machineFault(fsError('ENOENT', 'open', '/x'))).toBeUndefined();
    expect(machineFault(new Error('boom'))).toBeUndefined();
    expect(machineFault('boom')).toBeUndefined();
  });
});
