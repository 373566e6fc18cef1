/** The suite's output: a table for people, then one JSON document (its last line) for scripts. */
import type { Line, Load } from './lines.js';

const HEADER = ['measure', 'product', 'peers', 'ratio / target', 'result', 'load before → after'];

/** The table: a line per figure, cells on several lines where they hold several things. */
export function table(lines: readonly Line[]): string {
  const rows = [
    HEADER.map((cell) => [cell]),
    ...lines.map((l) => [
      wrap(l.label, 30),
      l.product.length > 0 ? l.product : ['—'],
      l.peers.length > 0 ? l.peers : ['—'],
      l.status === 'met' || l.status === 'NOT met'
        ? l.target
        : [...(l.note ? [l.note] : []), ...l.target],
      [l.status],
      l.load ? [`${l.load.before.loadavg[0]} → ${l.load.after.loadavg[0]}`] : ['—'],
    ]),
  ];
  const widths = HEADER.map((_, c) =>
    Math.max(...rows.map((row) => Math.max(...(row[c] ?? []).map((s) => s.length)))),
  );
  const rule = (dash: string) => widths.map((w) => dash.repeat(w)).join(`${dash}┼${dash}`);
  const out: string[] = [];
  rows.forEach((row, r) => {
    const height = Math.max(...row.map((cell) => cell.length));
    for (let i = 0; i < height; i++) {
      out.push(
        row
          .map((cell, c) => (cell[i] ?? '').padEnd(widths[c] ?? 0))
          .join(' │ ')
          .trimEnd(),
      );
    }
    out.push(rule(r === 0 ? '─' : '┈'));
  });
  return out.join('\n');
}

/** Breaks `text` into lines of at most `width` characters, between words. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(' ')) {
    if (current !== '' && current.length + 1 + word.length > width) {
      lines.push(current);
      current = word;
    } else current = current === '' ? word : `${current} ${word}`;
  }
  return [...lines, current];
}

export interface SuiteDocument {
  benchmark: 'order-importer';
  /** Raised when a key changes meaning. */
  schema: 1;
  startedAt: string;
  node: string;
  /** Every row count of the issue multiplied by this (1 = the sizes). */
  scale: number;
  load: { before: Load; after: Load };
  /** True when every measure run met its targets (measures not measured do not count). */
  allMet: boolean;
  measures: Record<string, Omit<Line, 'key' | 'product' | 'peers' | 'target'>>;
}

/** The JSON document: every line by its key, with its figures, targets and load. */
export function document(
  lines: readonly Line[],
  run: { startedAt: Date; scale: number; load: SuiteDocument['load'] },
): SuiteDocument {
  const measures: SuiteDocument['measures'] = {};
  for (const { key, product: _p, peers: _r, target: _t, ...rest } of lines) measures[key] = rest;
  return {
    benchmark: 'order-importer',
    schema: 1,
    startedAt: run.startedAt.toISOString(),
    node: process.version,
    scale: run.scale,
    load: run.load,
    allMet: !lines.some((l) => l.status === 'NOT met' || l.status === 'failed'),
    measures,
  };
}
