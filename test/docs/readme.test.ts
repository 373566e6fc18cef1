import { describe, expect, it } from 'vitest';

import { markdownPages, readPage, withoutFences } from './markdown.js';

// DESIGN §6 "Docs a newcomer reads": the README fits on a few screens, keeps its two commands,
// and the rest lives in docs/.
const README = readPage('README.md');

/** A `## title` section, up to the next `## `. */
function section(text: string, title: string): string {
  const start = text.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`no "## ${title}" section`);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

describe('README.md', () => {
  it('fits on a few screens', () => {
    expect(README.split('\n').length).toBeLessThanOrEqual(200);
  });

  it('keeps "The two commands": set-up and the main job first, the tests second, each in a sh block', () => {
    const blocks = [...section(README, 'The two commands').matchAll(/```sh\n([\s\S]*?)```/g)].map(
      (m) => (m[1] ?? '').trim(),
    );
    expect(blocks).toEqual(['npm ci && npm run demo', 'npm test']);
  });

  it('does not talk about apt-get on its first screen', () => {
    expect(README.split('\n').slice(0, 60).join('\n')).not.toMatch(/apt-get/);
  });

  it('has sections for import, watch and validate, and links to the guide, operations, benchmark, contributing and reference pages', () => {
    for (const command of ['import', 'watch', 'validate'])
      expect(README).toMatch(new RegExp(`\\n## .*\`[^\`]*${command}[^\`]*\``));
    for (const page of ['guide', 'operations', 'bench', 'contributing', 'reference'])
      expect(README).toContain(`(docs/${page}.md`);
  });
});

describe('README.md and docs/', () => {
  it('never show `npx order-importer`: the package is private, and is run from its folder', () => {
    const shown = markdownPages().filter((page) => readPage(page).includes('npx order-importer'));
    expect(shown).toEqual([]);
  });

  it('name workbooks wherever they list the kinds of sheet', () => {
    const leftOut = markdownPages().flatMap((page) =>
      withoutFences(readPage(page))
        .split(/\n\s*\n/)
        .filter((p) => /\bCSV\b/.test(p) && /\bNDJSON\b/.test(p) && /\bJSON\b/.test(p))
        .filter((p) => !/\.xlsx|workbook/i.test(p))
        .map((p) => `${page}: ${p.trim().slice(0, 80)}…`),
    );
    expect(leftOut).toEqual([]);
  });
});
