import { describe, expect, it } from 'vitest';

import { folderOf, readSources } from './source-tree.js';

/** docs/architecture.md "Which folder may import which": a folder imports its layer or lower. */
const LAYERS: Record<string, number> = {
  'src/glossary': 0,
  'src/logger': 0,
  'src/outage': 0,
  'src/stopping': 0,
  'src/package-root': 0,
  /** Every attempt count, wait and interval, with its default: it imports nothing. */
  'src/policy': 0,
  /** The few kinds of error (a person's to fix, not yet, refused): it imports nothing. */
  'src/errors': 0,
  /** A fault of the machine (EACCES, ENOSPC, EMFILE) as a person's error: it imports errors. */
  'src/machine-fault': 0,
  /** What a person reads, in nl, fr or en: the catalogues and how a language is chosen. */
  'src/language': 0,
  'src/api': 0,
  'src/connections': 0,
  'src/orders': 0,
  'src/sheets': 0,
  'src/redis': 0,
  /** The process's counters and health answers: they import nothing of the project. */
  'src/metrics': 0,
  'src/store': 1,
  'src/queue': 1,
  'src/context': 2,
  'src/rows': 3,
  'src/report': 3,
  'src/status': 3,
  /** Beside the report: it tells what the stages did; intake, report and status tell through it. */
  'src/notify': 3,
  'src/intake': 4,
  'src/split': 4,
  jobs: 5,
  'src/workers': 6,
  'src/dashboard': 6,
  /** What a person types, parsed and typed: the CLI's; stages get theirs from the context. */
  'src/settings': 7,
  /** A running process put together (`watch`, `worker`, `import`, `dashboard`): the one assembly. */
  'src/app': 7,
  'src/index': 7,
  /** Apart: it imports nothing of the project, and only the top layers start it. */
  sandbox: 7,
  /** Parses arguments, calls the assembly, prints: nothing imports it. */
  'src/cli': 8,
};

describe('the layers', () => {
  const modules = readSources();

  it('name every folder of the sources', () => {
    const unknown = [...new Set(modules.map((m) => folderOf(m.path)))].filter(
      (folder) => LAYERS[folder] === undefined,
    );
    expect(unknown).toEqual([]);
  });

  it('are only ever imported downwards', () => {
    const upward = modules.flatMap((module) => {
      const from = folderOf(module.path);
      return module.imports
        .filter((target) => /^(src|jobs|sandbox)\//.test(target))
        .filter((target) => (LAYERS[folderOf(target)] ?? 99) > (LAYERS[from] ?? -1))
        .map((target) => `${module.path} imports ${target}`);
    });
    expect(upward).toEqual([]);
  });

  it('keep the sandbox apart: it imports nothing of the project', () => {
    const reaching = modules
      .filter((module) => folderOf(module.path) === 'sandbox')
      .flatMap((module) => module.imports.filter((target) => /^(src|jobs)\//.test(target)));
    expect(reaching).toEqual([]);
  });
});
