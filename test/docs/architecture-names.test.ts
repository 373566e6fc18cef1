import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

import { describe, expect, it } from 'vitest';

import { readPage, ROOT } from './markdown.js';

/** Every file of the repository's own folders and its root, repository-relative. */
function sourceFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.push(relative(ROOT, path));
    }
  };
  for (const top of ['src', 'jobs', 'sandbox', 'bench', 'scripts', 'test', 'bin', 'docker'])
    walk(join(ROOT, top));
  const atRoot = readdirSync(ROOT, { withFileTypes: true }).filter((entry) => entry.isFile());
  return [...files, ...atRoot.map((entry) => entry.name)];
}

/** The `name.ts` (or `folder/name.ts`) the page names in code spans; placeholders left out. */
function namedFiles(text: string): Array<{ line: number; name: string }> {
  return text.split('\n').flatMap((line, i) =>
    [...line.matchAll(/`([\w./-]+\.(?:ts|js))`/g)].map((m) => ({
      line: i + 1,
      name: m[1] ?? '',
    })),
  );
}

// The map is read by someone new following a row file by file: a file it names that was
// renamed or removed sends them nowhere.
describe('docs/architecture.md', () => {
  it('names only files that exist (by their path, or the end of it)', () => {
    const files = sourceFiles();
    const missing = namedFiles(readPage('docs/architecture.md')).filter(
      ({ name }) => !files.some((file) => file === name || file.endsWith(`/${name}`)),
    );
    expect(missing.map(({ line, name }) => `docs/architecture.md:${line} ${name}`)).toEqual([]);
  });
});
