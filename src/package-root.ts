import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder holding order-importer's package.json. Sources run from `src/` (tests) and from
 * `dist/src/` (the built CLI), at different depths, so walk up rather than hard-code `../..`.
 */
export function packageRoot(from: string = fileURLToPath(import.meta.url)): string {
  let dir = dirname(from);
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown };
      if (parsed.name === 'order-importer') return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`order-importer's package.json not found above ${from}`);
    dir = parent;
  }
}

/** order-importer's own version, from its package.json. */
export function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as {
    version?: unknown;
  };
  return typeof manifest.version === 'string' ? manifest.version : 'unknown';
}

/** The sample product catalogue (the sandbox finds the same file on its own). */
export function defaultProductsFile(): string {
  return join(packageRoot(), 'samples', 'products.json');
}
