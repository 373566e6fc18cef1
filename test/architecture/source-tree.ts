/**
 * Reads the project's own sources (src/, jobs/, sandbox/) with the TypeScript compiler, for the
 * architecture tests: which module imports which, how long each function is, and where it takes
 * the context.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

import ts from 'typescript';

export const ROOT = resolve(import.meta.dirname, '../..');
export const SOURCE_FOLDERS = ['src', 'jobs', 'sandbox'] as const;

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

function importsOf(file: ts.SourceFile, path: string): string[] {
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

function functionName(node: ts.Node): string {
  const named = node as { name?: ts.Node };
  if (named.name && ts.isIdentifier(named.name)) return named.name.text;
  if (named.name && ts.isPrivateIdentifier(named.name)) return named.name.text;
  const parent = node.parent as ts.Node | undefined;
  if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name))
    return parent.name.text;
  if (parent && ts.isPropertyAssignment(parent) && ts.isIdentifier(parent.name))
    return parent.name.text;
  return '(anonymous)';
}

function functionsOf(file: ts.SourceFile): SourceModule['functions'] {
  const found: SourceModule['functions'] = [];
  const visit = (node: ts.Node): void => {
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

export function readSources(): SourceModule[] {
  return SOURCE_FOLDERS.flatMap((folder) => tsFiles(join(ROOT, folder))).map((absolute) => {
    const path = relative(ROOT, absolute);
    const file = ts.createSourceFile(path, readFileSync(absolute, 'utf8'), ts.ScriptTarget.Latest);
    return { path, imports: importsOf(file, path), functions: functionsOf(file) };
  });
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
