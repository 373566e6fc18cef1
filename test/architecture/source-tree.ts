/**
 * Reads the project's own sources (src/, jobs/, sandbox/) with the TypeScript compiler, for the
 * architecture tests: which module imports which, how long each function is, and where it takes
 * the context.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import type TS from 'typescript';

export const ROOT = resolve(import.meta.dirname, '../..');
export const SOURCE_FOLDERS = ['src', 'jobs', 'sandbox'] as const;

const require = createRequire(import.meta.url);
let loaded: typeof TS | undefined;
/** The compiler, loaded only when the sources must be parsed (half a second to load). */
function compiler(): typeof TS {
  loaded ??= require('typescript') as typeof TS;
  return loaded;
}

export interface SourceModule {
  /** Repository-relative path, `src/store/ledger.ts`. */
  path: string;
  /** Every module named in an import or export … from (relative ones resolved to repo paths). */
  imports: string[];
  functions: { name: string; line: number; lines: number; contextAt: number }[];
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

function importsOf(file: TS.SourceFile, path: string): string[] {
  const ts = compiler();
  const named = new Set<string>();
  for (const statement of file.statements) {
    const spec =
      (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
      statement.moduleSpecifier &&
      ts.isStringLiteral(statement.moduleSpecifier)
        ? statement.moduleSpecifier.text
        : undefined;
    if (spec === undefined) continue;
    named.add(
      spec.startsWith('.')
        ? relative(ROOT, resolve(ROOT, dirname(path), spec)).replace(/\.js$/, '.ts')
        : spec,
    );
  }
  return [...named];
}

function functionName(node: TS.Node): string {
  const ts = compiler();
  const named = node as { name?: TS.Node };
  if (named.name && ts.isIdentifier(named.name)) return named.name.text;
  if (named.name && ts.isPrivateIdentifier(named.name)) return named.name.text;
  const parent = node.parent as TS.Node | undefined;
  if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name))
    return parent.name.text;
  if (parent && ts.isPropertyAssignment(parent) && ts.isIdentifier(parent.name))
    return parent.name.text;
  return '(anonymous)';
}

function functionsOf(file: TS.SourceFile): SourceModule['functions'] {
  const ts = compiler();
  const found: SourceModule['functions'] = [];
  const visit = (node: TS.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const end = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({
        name: functionName(node),
        line: start + 1,
        lines: end - start + 1,
        contextAt: node.parameters.findIndex((p) => p.type?.getText(file) === 'Context'),
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/**
 * Every source, parsed. Parsing them all (loading and warming up the compiler, mostly) costs
 * about a second and a half of CPU in each test file that reads them, so what is found is kept
 * in node_modules/.cache under a hash of all it is made from: each source's path and text, this
 * file's text and the compiler's version. Any change to any of them parses again.
 */
export function readSources(): SourceModule[] {
  const sources = SOURCE_FOLDERS.flatMap((folder) => tsFiles(join(ROOT, folder))).map(
    (absolute) => ({ path: relative(ROOT, absolute), text: readFileSync(absolute, 'utf8') }),
  );
  const key = sourcesKey(sources);
  const kept = keptSources(key);
  if (kept !== undefined) return kept;
  const ts = compiler();
  const modules = sources.map(({ path, text }) => {
    const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest);
    return { path, imports: importsOf(file, path), functions: functionsOf(file) };
  });
  keepSources(key, modules);
  return modules;
}

const CACHE = join(ROOT, 'node_modules', '.cache', 'architecture-sources.json');

function sourcesKey(sources: readonly { path: string; text: string }[]): string {
  const hash = createHash('sha256');
  const manifest = require('typescript/package.json') as { version: string };
  hash.update(`${manifest.version}\0${readFileSync(fileURLToPath(import.meta.url), 'utf8')}\0`);
  for (const { path, text } of sources) hash.update(`${path}\0${text}\0`);
  return hash.digest('hex');
}

function keptSources(key: string): SourceModule[] | undefined {
  let text: string;
  try {
    text = readFileSync(CACHE, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const kept = JSON.parse(text) as { key: string; modules: SourceModule[] };
  return kept.key === key ? kept.modules : undefined;
}

/**
 * Written whole under another name, then renamed: a reader never sees half of it. Where
 * node_modules may not be written, nothing is kept and the next run parses again.
 */
function keepSources(key: string, modules: SourceModule[]): void {
  const partial = `${CACHE}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  try {
    mkdirSync(dirname(CACHE), { recursive: true });
    writeFileSync(partial, JSON.stringify({ key, modules }));
    renameSync(partial, CACHE);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (!['EACCES', 'EPERM', 'EROFS'].includes(code)) throw error;
  }
}

/**
 * The folder a module belongs to, as the layering sees it: `src/<folder>` (a file directly in
 * `src/` is a folder of its own), and `jobs`, `sandbox` whole.
 */
export function folderOf(path: string): string {
  const parts = path.split('/');
  if (parts[0] !== 'src') return parts[0] ?? path;
  return parts.length > 2 ? `src/${parts[1] ?? ''}` : path.replace(/\.ts$/, '');
}

/** The folders' import cycles, each as a path that comes back to its start. */
export function folderCycles(modules: SourceModule[]): string[][] {
  const edges = new Map<string, Set<string>>();
  for (const module of modules) {
    const from = folderOf(module.path);
    for (const target of module.imports) {
      if (!SOURCE_FOLDERS.some((folder) => target.startsWith(`${folder}/`))) continue;
      const to = folderOf(target);
      if (to !== from) edges.set(from, (edges.get(from) ?? new Set()).add(to));
    }
  }
  const cycles: string[][] = [];
  const seen = new Set<string>();
  for (const start of edges.keys()) {
    const stack: string[] = [];
    const walk = (node: string): void => {
      if (stack.includes(node)) {
        const cycle = [...stack.slice(stack.indexOf(node)), node];
        const key = [...cycle.slice(0, -1)].sort().join('|');
        if (!seen.has(key)) {
          seen.add(key);
          cycles.push(cycle);
        }
        return;
      }
      if (stack.length > 12) return;
      stack.push(node);
      for (const next of edges.get(node) ?? []) walk(next);
      stack.pop();
    };
    walk(start);
  }
  return cycles;
}
