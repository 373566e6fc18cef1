import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import { describe, expect, it } from 'vitest';

import { AbortedError, ApiError } from '../src/api/errors.js';
import { isKnown, KnownError, NotYet, Refused, UserError } from '../src/errors.js';
import { NotifyError } from '../src/notify/errors.js';
import { AttachmentRefused } from '../src/orders/open-attachment.js';
import { RowInterruption } from '../src/rows/interruption.js';
import { SheetError } from '../src/sheets/errors.js';
import { said } from '../src/sheets/said.js';
import { packageRoot } from '../src/package-root.js';

const ROOT = packageRoot();

/**
 * Every error class of the importer, with what it extends and why it is a class of its own. The
 * three kinds are what an entry point acts on; the others carry something their catcher reads
 * beside the kind. Any other error is one of the kinds with a key of its own (src/errors.ts).
 */
const ERROR_CLASSES: Record<string, { extends: string; carries: string }> = {
  KnownError: { extends: 'Error', carries: 'retryable, exitCode, key' },
  UserError: { extends: 'KnownError', carries: 'a person must fix it: one line, an exit code' },
  NotYet: { extends: 'KnownError', carries: 'how long until it is looked at again' },
  Refused: { extends: 'KnownError', carries: 'nothing: trying again changes nothing' },
  ApiError: { extends: 'KnownError', carries: "the API's kind, status, Retry-After, fields" },
  AbortedError: { extends: 'KnownError', carries: 'a stop at once: no verdict on the request' },
  SheetError: { extends: 'KnownError', carries: 'the line that cannot be read' },
  RowInterruption: { extends: 'KnownError', carries: "a row job's wait, hold or stop" },
  NotifyError: { extends: 'KnownError', carries: "the receiver's Retry-After" },
  AttachmentRefused: { extends: 'Refused', carries: 'the path and why it is refused' },
  // The sandbox imports nothing of src/: src/cli/program.ts knows it by name.
  ProductsFileError: { extends: 'Error', carries: 'the sandbox’s own, apart from the importer' },
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

function sourceFiles(): string[] {
  return ['src', 'jobs', 'sandbox']
    .flatMap((folder) => sources(join(ROOT, folder)))
    .map((path) => relative(ROOT, path));
}

function linesMatching(pattern: RegExp, except: (path: string) => boolean): string[] {
  return sourceFiles()
    .filter((path) => !except(path))
    .flatMap((path) =>
      readFileSync(join(ROOT, path), 'utf8')
        .split('\n')
        .flatMap((line, at) => (pattern.test(line) ? [`${path}:${at + 1}`] : [])),
    );
}

/** Every class that is an Error, by name: what it extends, and where it is declared. */
function errorClasses(): Map<string, { extends: string; path: string }> {
  const all = new Map<string, { extends: string; path: string }>();
  for (const path of sourceFiles()) {
    const text = readFileSync(join(ROOT, path), 'utf8');
    for (const [, name, base] of text.matchAll(/\bclass (\w+) extends (\w+)/g))
      if (name !== undefined && base !== undefined) all.set(name, { extends: base, path });
  }
  const isError = (name: string): boolean => {
    const base = all.get(name)?.extends;
    return base !== undefined && (base === 'Error' || isError(base));
  };
  return new Map([...all].filter(([name]) => isError(name)));
}

describe('the kinds of error', () => {
  it('say what the entry point needs: retryable, exit code, the key, the message as written', () => {
    const config = new UserError('config.invalid', 'API_WAIT_S: must be a number');
    expect([config.retryable, config.exitCode, config.key, config.message]).toEqual([
      false,
      1,
      'config.invalid',
      'API_WAIT_S: must be a number',
    ]);
    expect(new UserError('api.wait-stopped', 'stopped', { exitCode: 0 }).exitCode).toBe(0);
    expect(new UserError('sheet.unsettled', 'still being written', { retryable: true })).toEqual(
      expect.objectContaining({ retryable: true, key: 'sheet.unsettled' }),
    );
    const cause = new Error('under');
    expect(new Refused('redis.forgot', 'forgot', { cause }).cause).toBe(cause);
    expect(new NotYet('sheet.waits-for-earlier', 'waits', { retryInMs: 2000 })).toMatchObject({
      retryable: true,
      retryInMs: 2000,
    });
    expect(new NotYet('process.stopping', 'stopping').retryInMs).toBeUndefined();
    expect(new Refused('sheet.foreign', 'not ours').retryable).toBe(false);
  });

  it('let a catcher pick one out of its kind by its key', () => {
    const mapping = new UserError('mapping.invalid', 'no such column');
    expect(isKnown(mapping, 'mapping.invalid')).toBe(true);
    expect(isKnown(mapping, 'config.invalid')).toBe(false);
    expect(isKnown(new Error('mapping.invalid'), 'mapping.invalid')).toBe(false);
  });

  it('are what the classes that carry more extend, each saying whether a retry may help', () => {
    const api = (kind: 'retryable' | 'ambiguous') =>
      new ApiError('x', { kind, method: 'POST', url: '/api/orders/' });
    expect([api('retryable').retryable, api('ambiguous').retryable]).toEqual([true, false]);
    expect(api('ambiguous').key).toBe('api.ambiguous');
    expect(new AbortedError('stopping now')).toMatchObject({
      retryable: true,
      key: 'request.aborted',
    });
    expect(new SheetError(said('sheets.csv.quoteInCell'), 90)).toMatchObject({
      retryable: false,
      key: 'sheet.unreadable',
      message: 'line 90: a quote opens in the middle of a cell.',
    });
    expect(new RowInterruption({ kind: 'delay', ms: 5 })).toMatchObject({
      retryable: true,
      key: 'row.delay',
    });
    expect(new RowInterruption({ kind: 'stop', stop: { reason: 'token refused' } }).retryable).toBe(
      false,
    );
    expect(new NotifyError('busy', 'retry').retryable).toBe(true);
    expect(new NotifyError('no', 'refused').key).toBe('notify.refused');
    const refused = new AttachmentRefused('a.pdf', 'not-file', 'gone');
    expect(refused).toBeInstanceOf(Refused);
    expect(refused.key).toBe('attachment.not-file');
    for (const error of [
      api('retryable'),
      new SheetError(said('sheets.empty')),
      new NotifyError('x', 'retry'),
    ])
      expect(error).toBeInstanceOf(KnownError);
  });

  it('are few: no error class but the listed ones (a new one is a kind with a key)', () => {
    const found = Object.fromEntries(
      [...errorClasses()].map(([name, { extends: base }]) => [name, base]),
    );
    const listed = Object.fromEntries(
      Object.entries(ERROR_CLASSES).map(([name, { extends: base }]) => [name, base]),
    );
    expect(found).toEqual(listed);
  });

  it('declare `retryable` only in the listed classes', () => {
    const homes = new Set([...errorClasses().values()].map(({ path }) => path));
    const declared = linesMatching(
      /^\s*(override\s+)?(readonly retryable\b|get retryable\()/,
      (path) => homes.has(path),
    );
    expect(declared).toEqual([]);
  });

  it('are turned into a line for a person in one place, the entry point', () => {
    expect(linesMatching(/\bforUser\(/, (path) => path === 'src/cli/program.ts')).toEqual([]);
  });
});
