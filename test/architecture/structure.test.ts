import { describe, expect, it } from 'vitest';

import { folderCycles, readSources } from './source-tree.js';

const modules = readSources();

describe('the source tree', () => {
  it('has no import cycle between folders', () => {
    expect(folderCycles(modules).map((cycle) => cycle.join(' → '))).toEqual([]);
  });

  it('has no function over 80 lines', () => {
    const long = modules.flatMap((module) =>
      module.functions
        .filter((fn) => fn.lines > 80)
        .map((fn) => `${module.path}:${fn.line} ${fn.name} (${fn.lines} lines)`),
    );
    expect(long).toEqual([]);
  });

  it('has every function that takes the context take it first', () => {
    const later = modules.flatMap((module) =>
      module.functions
        .filter((fn) => fn.contextAt > 0)
        .map((fn) => `${module.path}:${fn.line} ${fn.name} (parameter ${fn.contextAt + 1})`),
    );
    expect(later).toEqual([]);
  });

  it('has no module importing more than 10 others', () => {
    const wide = modules
      .map((module) => ({
        path: module.path,
        count: module.imports.filter((name) => !name.startsWith('node:')).length,
      }))
      .filter((module) => module.count > 10)
      .map((module) => `${module.path} (${module.count})`);
    expect(wide).toEqual([]);
  });
});
