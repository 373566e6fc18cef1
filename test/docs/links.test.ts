import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

import { describe, expect, it } from 'vitest';

import { anchorsOf, linksOf, markdownPages, readPage, ROOT } from './markdown.js';

/** What is wrong with a link of a page, if anything. */
function brokenLink(page: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//'))
    return 'points outside the repository';
  const [path = '', anchor] = target.split('#', 2);
  const file = path === '' ? join(ROOT, page) : resolve(ROOT, dirname(page), decodeURI(path));
  if (relative(ROOT, file).startsWith('..')) return 'points outside the repository';
  if (!existsSync(file)) return 'names no file';
  if (anchor !== undefined && file.endsWith('.md')) {
    const anchors = anchorsOf(readPage(relative(ROOT, file)));
    if (!anchors.has(decodeURIComponent(anchor))) return 'names no heading of that page';
  }
  return undefined;
}

describe('the links of README.md and docs/', () => {
  it('point at files of the repository that exist, and at headings those pages have', () => {
    const broken = markdownPages().flatMap((page) =>
      linksOf(readPage(page)).flatMap(({ line, target }) => {
        const why = brokenLink(page, target);
        return why === undefined ? [] : [`${page}:${line} ${target}: ${why}`];
      }),
    );
    expect(broken).toEqual([]);
  });

  it('are found where Markdown has them, and not in code', () => {
    const text = [
      'See [the guide](docs/guide.md#sheets) and ![a plan](samples/plan.png).',
      '`[not a link](nowhere.md)` and <https://example.com/>',
      '```',
      '[in a block](nowhere.md)',
      '```',
    ].join('\n');
    expect(linksOf(text).map((link) => link.target)).toEqual([
      'docs/guide.md#sheets',
      'samples/plan.png',
      'https://example.com/',
    ]);
  });

  it('reach a heading by the anchor GitHub gives it', () => {
    const anchors = anchorsOf(
      '# Importing: `order-importer import`\n## Sheets\n## Sheets\n### What it reproduces, in short\n',
    );
    expect([...anchors]).toEqual([
      'importing-order-importer-import',
      'sheets',
      'sheets-1',
      'what-it-reproduces-in-short',
    ]);
  });
});
