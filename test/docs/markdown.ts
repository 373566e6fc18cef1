/**
 * What the documentation tests read of a Markdown page: its prose without code, its links, and
 * the anchors its headings make (as GitHub spells them).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { packageRoot } from '../../src/package-root.js';

export const ROOT = packageRoot();

/** README.md and every page under docs/, repository-relative. */
export function markdownPages(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs];
}

export function readPage(page: string): string {
  return readFileSync(join(ROOT, page), 'utf8');
}

/** The page with its fenced code blocks blanked out (their lines kept, so line numbers hold). */
export function withoutFences(text: string): string {
  let inFence = false;
  return text
    .split('\n')
    .map((line) => {
      if (/^\s*```/.test(line)) {
        inFence = !inFence;
        return '';
      }
      return inFence ? '' : line;
    })
    .join('\n');
}

/** A line with its `code` spans blanked out. */
function withoutSpans(line: string): string {
  return line.replace(/(`+)[^`]*?\1/g, '');
}

export interface Link {
  line: number;
  target: string;
}

/** Every inline link and image target, and every `<…://…>` autolink, outside code. */
export function linksOf(text: string): Link[] {
  return withoutFences(text)
    .split('\n')
    .flatMap((raw, index) => {
      const line = withoutSpans(raw);
      const inline = [...line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)];
      const auto = [...line.matchAll(/<([a-z][a-z0-9+.-]*:[^>\s]+)>/gi)];
      return [...inline, ...auto].map((m) => ({ line: index + 1, target: m[1] ?? '' }));
    });
}

/** The anchors of a page's headings, as GitHub makes them (a repeated one gets -1, -2…). */
export function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of withoutFences(text).split('\n')) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = heading
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}
