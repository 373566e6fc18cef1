import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import { describe, expect, it } from 'vitest';

import { KnownError, NotYet, Refused, UserError } from '../src/errors.js';
import { CatalogueError } from '../src/orders/catalogue.js';
import { MappingError } from '../src/orders/columns.js';
import { AttachmentRefused } from '../src/orders/open-attachment.js';
import { packageRoot } from '../src/package-root.js';
import { ConfigError } from '../src/settings/load.js';
import { NotYetError } from '../src/split/not-yet.js';
import { SheetUnsettledError } from '../src/store/sheet-copy.js';
import { StoppingError } from '../src/stopping.js';

const ROOT = packageRoot();

/** Left to the changes of their folders (rows), which this one may not edit. */
const LEFT = new Set(['src/rows/interruption.ts', 'src/rows/attachment-source.ts']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

function linesMatching(pattern: RegExp, except: (path: string) => boolean): string[] {
  return ['src', 'jobs']
    .flatMap((folder) => sources(join(ROOT, folder)))
    .map((path) => relative(ROOT, path))
    .filter((path) => !except(path))
    .flatMap((path) =>
      readFileSync(join(ROOT, path), 'utf8')
        .split('\n')
        .flatMap((line, at) => (pattern.test(line) ? [`${path}:${at + 1}`] : [])),
    );
}

describe('the kinds of error', () => {
  it('say what the entry point needs: retryable, exit code, the message as written', () => {
    const config = new ConfigError('API_WAIT_S: must be a number');
    expect(config).toBeInstanceOf(UserError);
    expect([config.retryable, config.exitCode, config.message]).toEqual([
      false,
      1,
      'API_WAIT_S: must be a number',
    ]);
    expect(new UserError('stopped', 0).exitCode).toBe(0);
    expect(new SheetUnsettledError('still being written').retryable).toBe(true);
    for (const kind of [MappingError, CatalogueError])
      expect(new kind('x')).toBeInstanceOf(UserError);
    expect(new NotYetError('waits', 2000)).toMatchObject({ retryable: true, retryInMs: 2000 });
    expect(new StoppingError('stopping')).toBeInstanceOf(NotYet);
    expect(new AttachmentRefused('a.pdf', 'not-file', 'gone')).toBeInstanceOf(Refused);
    for (const error of [
      config,
      new StoppingError('s'),
      new AttachmentRefused('a', 'not-file', 'm'),
    ])
      expect(error).toBeInstanceOf(KnownError);
  });

  it('are the only place a `retryable` field is declared', () => {
    const declared = linesMatching(
      /^\s*(override\s+)?readonly retryable\b/,
      (path) => path === 'src/errors.ts' || LEFT.has(path),
    );
    expect(declared.map((line) => line.split(':')[0])).toEqual(['src/store/sheet-copy.ts']);
  });

  it('are turned into a line for a person in one place, the entry point', () => {
    expect(linesMatching(/\bforUser\(/, (path) => path === 'src/cli/program.ts')).toEqual([]);
  });
});
