/**
 * The page's own files (assets/: page.html, page.css, overview.js), read once when the dashboard
 * starts. They are not TypeScript, so the build leaves them out of dist/: they are found from the
 * package root, the same folder in a checkout, an installed package ("files" in package.json)
 * and the image (which copies src/).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { packageRoot } from '../package-root.js';
import { PLACES } from './page.js';

/** A file the dashboard serves under /assets/, with its media type. */
export interface Asset {
  type: string;
  body: string;
}

export interface PageAssets {
  /** page.html, its places not yet filled (page.ts). */
  template: string;
  /** What /assets/<name> serves, by name; nothing else is served from there. */
  files: ReadonlyMap<string, Asset>;
}

/** The folder of the page's files. */
export function assetsDir(): string {
  return join(packageRoot(), 'src', 'dashboard', 'assets');
}

const SERVED: Record<string, string> = {
  'page.css': 'text/css; charset=utf-8',
  'overview.js': 'text/javascript; charset=utf-8',
};

/** Reads the page's files; fails at start, naming the file, when one is missing or wrong. */
export async function loadPageAssets(dir: string = assetsDir()): Promise<PageAssets> {
  const template = await readFile(join(dir, 'page.html'), 'utf8');
  for (const place of Object.values(PLACES)) {
    if (template.split(place).length !== 2) {
      throw new Error(`${join(dir, 'page.html')} must hold ${place} once`);
    }
  }
  const files = new Map<string, Asset>();
  for (const [name, type] of Object.entries(SERVED)) {
    files.set(name, { type, body: await readFile(join(dir, name), 'utf8') });
  }
  return { template, files };
}
